import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSwitch } from '../../../components/language-switch';
import { errorText } from '@coffer/api-client/api-error';
import { login } from '../api/login';
import { loginSecondFactor } from '../api/login-second-factor';
import { queryKeys } from '../../../lib/query-keys';
import { signedOutReason } from '../../../lib/session';
import { acceptSession, NoPermission } from '../session';

interface Credentials {
  email: string;
  password: string;
}

/** E-mail + password, then the authenticator code when the account asks for one. */
export default function SignInPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Why the console signed out (idle, or the server ended the session), once.
  const [signedOut] = useState(() => signedOutReason.take());

  const finish = async (run: () => Promise<void>) => {
    setBusy(true);
    try {
      await run();
    } catch (error) {
      message.error(error instanceof NoPermission ? t('auth.noPermission') : errorText(error, t('errors.unexpected')));
    } finally {
      setBusy(false);
    }
  };

  const enter = async (data: Parameters<typeof acceptSession>[0]) => {
    const user = await acceptSession(data);
    queryClient.setQueryData(queryKeys.currentUser, user);
    navigate('/', { replace: true });
  };

  const onCredentials = (values: Credentials) =>
    finish(async () => {
      const answer = await login(values);
      if ('secondFactor' in answer) {
        // Not busy any more: the code form opens ready to submit.
        setBusy(false);
        setChallenge(answer.secondFactor.challenge);
      } else await enter(answer);
    });

  const onCode = (values: { code: string }) =>
    finish(async () => {
      if (challenge) await enter(await loginSecondFactor({ challenge, code: values.code.trim() }));
    });

  return (
    <div className="console-sign-in">
      <Card title={t('auth.title')} extra={<LanguageSwitch />} className="console-sign-in-card">
        {signedOut && <Alert type="info" showIcon title={signedOut} style={{ marginBottom: 16 }} data-testid="signed-out-reason" />}
        {/* Keyed: the code form mounts fresh rather than taking over the password form's button
            mid-way through its loading animation (its name stayed "loading Verify" for a while). */}
        {challenge ? (
          <Form key="code" layout="vertical" onFinish={onCode} requiredMark={false}>
            <Typography.Paragraph>{t('auth.secondFactorHint')}</Typography.Paragraph>
            <Form.Item name="code" label={t('auth.code')} rules={[{ required: true, message: t('validation.required') }]}>
              <Input autoComplete="one-time-code" inputMode="numeric" autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} block>
              {t('auth.verify')}
            </Button>
          </Form>
        ) : (
          <Form key="password" layout="vertical" onFinish={onCredentials} requiredMark={false}>
            <Form.Item name="email" label={t('auth.email')} rules={[{ required: true, type: 'email', message: t('validation.email') }]}>
              <Input autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item name="password" label={t('auth.password')} rules={[{ required: true, message: t('validation.required') }]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} block>
              {t('auth.signIn')}
            </Button>
          </Form>
        )}
      </Card>
    </div>
  );
}
