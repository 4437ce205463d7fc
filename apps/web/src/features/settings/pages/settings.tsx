import { ActionSheet, Button, List, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../lib/dialog';
import { developerMenuEnabled } from '../../../lib/developer-menu';
import { DEMO_PATHS, ROUTE_META } from '../../../lib/route-meta';
import { type AppLanguage, LANGUAGES } from '../../../lib/language';
import { useLanguageStore } from '../../../stores/language';
import { useThemeStore } from '../../../stores/theme';
import { useLogout } from '../api/logout';
import { NotifySettingsList } from '../components/notify-settings';

export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguageStore((state) => state.language);
  const setLanguage = useLanguageStore((state) => state.setLanguage);
  const theme = useThemeStore((state) => state.theme);
  const setTheme = useThemeStore((state) => state.setTheme);
  const logout = useLogout();
  const [choosingLanguage, setChoosingLanguage] = useState(false);

  const signOut = async () => {
    const confirmed = await Dialog.confirm({
      content: t('settings.logoutConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    try {
      await logout.mutateAsync();
    } catch {
      // Local sign-out happens whatever the server said (useLogout's onSettled).
    }
    navigate('/login', { replace: true });
  };

  return (
    <div className="flex flex-col gap-4">
      <List header={t('settings.appearance')} mode="card" className="m-0!">
        <List.Item data-testid="settings-language" extra={t(`languages.${language}`)} onClick={() => setChoosingLanguage(true)}>
          {t('settings.language')}
        </List.Item>
        <List.Item
          extra={
            <Switch
              data-testid="settings-dark"
              checked={theme === 'dark'}
              onChange={(checked) => setTheme(checked ? 'dark' : 'light')}
              aria-label={t('settings.darkMode')}
            />
          }
        >
          {t('settings.darkMode')}
        </List.Item>
      </List>

      <List header={t('settings.security')} mode="card" className="m-0!">
        <List.Item data-testid="settings-security" onClick={() => navigate('/settings/security')}>
          {t('settings.securityCentre')}
        </List.Item>
        <List.Item data-testid="settings-2fa" onClick={() => navigate('/settings/2fa')}>
          {t('settings.twoFactor')}
        </List.Item>
        <List.Item data-testid="settings-passkeys" onClick={() => navigate('/settings/passkeys')}>
          {t('settings.passkeys')}
        </List.Item>
        <List.Item data-testid="settings-address-book" onClick={() => navigate('/settings/address-book')}>
          {t('settings.addressBook')}
        </List.Item>
      </List>

      <NotifySettingsList />

      {/* The spec's demo pages: served in every build, listed here only when enabled (lib/developer-menu.ts). */}
      {developerMenuEnabled() ? (
        <List header={t('settings.developer')} mode="card" className="m-0!">
          {DEMO_PATHS.map((path) => (
            <List.Item key={path} onClick={() => navigate(path)} description={path}>
              {t(ROUTE_META[path]?.title ?? 'routes.notFound')}
            </List.Item>
          ))}
        </List>
      ) : null}

      <Button block color="danger" fill="outline" size="large" onClick={signOut} loading={logout.isPending} data-testid="logout">
        {t('settings.logout')}
      </Button>

      <ActionSheet
        visible={choosingLanguage}
        extra={t('settings.chooseLanguage')}
        cancelText={t('common.cancel')}
        actions={LANGUAGES.map((lang) => ({
          key: lang,
          text: t(`languages.${lang}`),
          'data-testid': `language-${lang}`,
        }))}
        onAction={(action) => {
          void setLanguage(action.key as AppLanguage);
          setChoosingLanguage(false);
        }}
        onClose={() => setChoosingLanguage(false)}
      />
    </div>
  );
}
