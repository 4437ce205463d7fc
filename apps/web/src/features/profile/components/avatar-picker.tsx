import { Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { PRESET_AVATARS } from '../../../lib/avatars';
import { toastSuccess } from '../../../lib/notify';
import { UserAvatar } from '../../../components/user-avatar';
import { useUpdateUserInfo } from '../api/update-user-info';

interface Props {
  visible: boolean;
  current: string | null;
  onClose: () => void;
}

export function AvatarPicker({ visible, current, onClose }: Props) {
  const { t } = useTranslation();
  const update = useUpdateUserInfo();

  const pick = async (avatar: string) => {
    if (avatar === current) {
      onClose();
      return;
    }
    try {
      await update.mutateAsync({ avatar });
    } catch {
      return;
    }
    toastSuccess(t('profile.updated'));
    onClose();
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyStyle={{ borderRadius: '16px 16px 0 0' }}>
      <div className="p-4 pb-8">
        <h2 className="m-0 mb-4 text-base font-semibold text-center">{t('profile.chooseAvatar')}</h2>
        <div className="grid grid-cols-4 gap-4 justify-items-center">
          {PRESET_AVATARS.map((avatar, index) => (
            <button
              key={avatar}
              type="button"
              className="avatar-option"
              data-testid={`avatar-${avatar}`}
              aria-label={t('profile.presetAvatar', { n: index + 1 })}
              aria-pressed={avatar === current}
              disabled={update.isPending}
              onClick={() => pick(avatar)}
            >
              <UserAvatar avatar={avatar} size={56} />
            </button>
          ))}
        </div>
      </div>
    </Popup>
  );
}
