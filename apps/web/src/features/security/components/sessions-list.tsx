import type { SecuritySession } from '@coffer/contract/security';
import { Button, List, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../lib/dialog';
import { toastSuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/wallet/format';
import { useRevokeSession, useSessions } from '../api/security';
import { deviceLabel } from './device-label';

/** The signed-in devices: this one tagged, each other one revocable, or all others at once. */
export function SessionsList() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const list = sessions.data?.list ?? [];
  const others = list.filter((s) => !s.current);

  const confirmRevoke = async (target: SecuritySession | 'others') => {
    const confirmed = await Dialog.confirm({
      content: target === 'others' ? t('security.revokeOthersConfirm') : t('security.revokeConfirm', { device: deviceLabel(t, target) }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await revoke.mutateAsync(target === 'others' ? 'others' : target.id);
      toastSuccess(t('security.revoked'));
    } catch {
      // The HTTP layer showed the refusal.
    }
  };

  return (
    <List header={t('security.sessions')} mode="card" className="m-0!" data-testid="security-sessions">
      {list.map((s) => (
        <List.Item
          key={s.id}
          data-testid="security-session"
          data-current={s.current ? 'true' : undefined}
          description={<SessionTimes session={s} />}
          extra={
            s.current ? (
              <Tag color="primary" fill="outline" data-testid="security-session-current">
                {t('security.thisDevice')}
              </Tag>
            ) : (
              <Button size="mini" color="danger" fill="outline" onClick={() => confirmRevoke(s)} data-testid="security-session-revoke">
                {t('security.revoke')}
              </Button>
            )
          }
        >
          {deviceLabel(t, s)}
        </List.Item>
      ))}
      {sessions.isSuccess && others.length > 0 && (
        <List.Item>
          <Button
            block
            color="danger"
            fill="outline"
            loading={revoke.isPending}
            onClick={() => confirmRevoke('others')}
            data-testid="security-revoke-others"
          >
            {t('security.revokeOthers')}
          </Button>
        </List.Item>
      )}
    </List>
  );
}

/** Where a session came from and when it began and was last seen. */
function SessionTimes({ session }: { session: SecuritySession }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col">
      <span>IP {session.ip ?? '--'}</span>
      <span>
        {t('security.createdAt')} {formatDateTime(session.createdAt)}
      </span>
      <span>
        {t('security.lastSeenAt')} {formatDateTime(session.lastSeenAt ?? session.createdAt)}
      </span>
    </div>
  );
}
