import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Links to the pages that change how the user signs in: two-factor, passkeys, password. */
export function SignInMethods() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <List header={t('security.signInMethods')} mode="card" className="m-0!">
      <List.Item data-testid="security-2fa" onClick={() => navigate('/settings/2fa')}>
        {t('settings.twoFactor')}
      </List.Item>
      <List.Item data-testid="security-passkeys" onClick={() => navigate('/settings/passkeys')}>
        {t('security.passkeys')}
      </List.Item>
      <List.Item data-testid="security-change-password" onClick={() => navigate('/settings/password')}>
        {t('security.changePassword')}
      </List.Item>
    </List>
  );
}
