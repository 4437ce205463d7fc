import { Badge, List } from 'antd-mobile';
import { BellOutline, BillOutline, EditSOutline, QuestionCircleOutline, SetOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DepositIcon, SendIcon, WithdrawIcon } from '../../../components/icons';
import { UserAvatar } from '../../../components/user-avatar';
import { copyText } from '../../../lib/clipboard';
import { toastSuccess } from '../../../lib/notify';
import { useCurrentUser } from '../../../lib/current-user';
import { useUnreadCount } from '../../../lib/notice-unread';
import { AvatarPicker } from '../components/avatar-picker';
import { NicknameDialog } from '../components/nickname-dialog';

export default function ProfilePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const [editingNickname, setEditingNickname] = useState(false);
  const [pickingAvatar, setPickingAvatar] = useState(false);
  const unread = useUnreadCount().data?.unreadCount ?? 0;

  const actions = [
    // The same icons as Home's quick actions for the same pages.
    { to: '/charge', label: t('profile.charge'), icon: <DepositIcon />, testId: 'profile-charge' },
    { to: '/withdraw', label: t('profile.withdraw'), icon: <WithdrawIcon />, testId: 'profile-withdraw' },
    { to: '/transfer', label: t('profile.transfer'), icon: <SendIcon />, testId: 'profile-transfer' },
  ];
  const copyUid = async () => {
    if (user && (await copyText(String(user.uid)))) toastSuccess(t('profile.uidCopied'));
  };

  return (
    <div className="profile-page">
      <header className="profile-header">
        <button
          type="button"
          className="avatar-option"
          aria-label={t('profile.changeAvatar')}
          data-testid="profile-avatar"
          onClick={() => setPickingAvatar(true)}
        >
          <UserAvatar avatar={user?.avatar} size={64} />
        </button>
        <div className="min-w-0 flex-1">
          <button
            type="button"
            className="profile-nickname"
            data-testid="profile-nickname"
            aria-label={`${user?.nickname || user?.email || ''}, ${t('profile.editNickname')}`}
            onClick={() => setEditingNickname(true)}
          >
            <span className="truncate">{user?.nickname || user?.email}</span>
            <EditSOutline aria-hidden />
          </button>
          <div className="profile-meta profile-uid">
            <span data-testid="profile-uid">{user ? t('profile.uid', { uid: user.uid }) : null}</span>
            {user ? (
              <button
                type="button"
                className="profile-uid-copy"
                aria-label={t('profile.copyUid')}
                onClick={copyUid}
                data-testid="profile-uid-copy"
              >
                {t('profile.copy')}
              </button>
            ) : null}
          </div>
          <div className="profile-meta truncate">{user?.email}</div>
        </div>
      </header>

      <nav className="profile-actions card" aria-label={t('profile.assets')}>
        {actions.map((action) => (
          <button key={action.to} type="button" className="profile-action" data-testid={action.testId} onClick={() => navigate(action.to)}>
            <span className="profile-action-icon">{action.icon}</span>
            <span>{action.label}</span>
          </button>
        ))}
      </nav>

      <List className="profile-list" mode="card">
        <List.Item prefix={<BillOutline />} onClick={() => navigate('/bill')} data-testid="profile-bills">
          {t('profile.records')}
        </List.Item>
        <List.Item
          prefix={<BellOutline />}
          extra={unread > 0 ? <Badge content={unread > 99 ? '99+' : unread} data-testid="profile-notices-badge" /> : null}
          onClick={() => navigate('/noticeCenter')}
          data-testid="profile-notices"
        >
          {t('profile.notices')}
          {unread > 0 ? <span className="sr-only">{t('notice.unreadCount', { count: unread })}</span> : null}
        </List.Item>
        <List.Item prefix={<QuestionCircleOutline />} onClick={() => navigate('/helpCenter')} data-testid="profile-help">
          {t('profile.helpCenter')}
        </List.Item>
        <List.Item prefix={<SetOutline />} onClick={() => navigate('/settings')} data-testid="profile-settings">
          {t('profile.settings')}
        </List.Item>
      </List>

      <NicknameDialog visible={editingNickname} current={user?.nickname ?? ''} onClose={() => setEditingNickname(false)} />
      <AvatarPicker visible={pickingAvatar} current={user?.avatar ?? null} onClose={() => setPickingAvatar(false)} />
    </div>
  );
}
