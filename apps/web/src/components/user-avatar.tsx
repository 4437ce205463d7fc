import { useTranslation } from 'react-i18next';
import { avatarUrl } from '../lib/avatars';

export function UserAvatar({ avatar, size = 64 }: { avatar: string | null | undefined; size?: number }) {
  const { t } = useTranslation();
  return (
    <img
      className="user-avatar"
      src={avatarUrl(avatar)}
      alt={t('profile.avatarAlt')}
      width={size}
      height={size}
      style={{ borderRadius: '50%', display: 'block' }}
    />
  );
}
