import { List, Switch } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastDanger } from '../../../lib/notify';
import { useNotifySettings, useSetNotifySettings } from '../api/notify-settings';
import { disablePush, enablePush, pushEnabled, pushSupported } from '../api/push';

/** Push on this device: a switch when the browser can show notifications (docs/decisions/054). */
function PushItem() {
  const { t } = useTranslation();
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void pushEnabled().then(setOn, () => setOn(false));
  }, []);
  if (!pushSupported()) return null;
  const change = async (checked: boolean) => {
    setBusy(true);
    try {
      if (!checked) {
        await disablePush();
        setOn(false);
      } else if ((await enablePush()) === 'blocked') {
        toastDanger(t('settings.pushBlocked'));
      } else {
        setOn(true);
      }
    } catch {
      // the API client has shown the server's message; a browser refusal needs no more
    } finally {
      setBusy(false);
    }
  };
  return (
    <List.Item extra={<Switch data-testid="settings-push" checked={on} loading={busy} onChange={change} aria-label={t('settings.push')} />}>
      {t('settings.push')}
    </List.Item>
  );
}

/** The mail toggles per category; a notice in the notice center comes either way. */
export function NotifySettingsList() {
  const { t } = useTranslation();
  const settings = useNotifySettings();
  const set = useSetNotifySettings();
  const item = (key: 'moneyMail' | 'securityMail', testId: string) => (
    <List.Item
      extra={
        <Switch
          data-testid={testId}
          checked={settings.data?.[key] ?? key === 'securityMail'}
          disabled={!settings.data}
          loading={set.isPending && set.variables?.[key] !== undefined}
          onChange={(checked) => set.mutate({ [key]: checked })}
          aria-label={t(`settings.${key}`)}
        />
      }
    >
      {t(`settings.${key}`)}
    </List.Item>
  );
  return (
    <List header={t('settings.notifications')} mode="card" className="m-0!">
      {item('moneyMail', 'settings-money-mail')}
      {item('securityMail', 'settings-security-mail')}
      <PushItem />
    </List>
  );
}
