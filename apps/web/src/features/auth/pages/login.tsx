import { loginBody } from '@coffer/contract/auth';
import { Form, Input } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { refreshCurrentUser } from '../../../lib/current-user';
import { schemaRule } from '../../../lib/form-rules';
import { toastSuccess } from '../../../lib/notify';
import { useLogin } from '../api/login';
import { AuthSubmit, EmailField } from '../components/account-fields';
import { AuthHeader } from '../components/auth-header';

interface Values {
  email: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const queryClient = useQueryClient();

  const onFinish = async (values: Values) => {
    const body = loginBody.parse(values);
    try {
      await login.mutateAsync(body);
    } catch {
      // Refusals were shown by the HTTP layer; the form stays filled in for another try.
      return;
    }
    // Public pages (home among them) do not run the guard's user fetch.
    await refreshCurrentUser(queryClient).catch(() => undefined);
    toastSuccess(t('auth.loginSuccess'));
    navigate('/', { replace: true });
  };

  return (
    <div className="auth-page">
      <AuthHeader title={t('auth.welcome')} subtitle={t('auth.tagline')} />
      <Form
        layout="vertical"
        onFinish={onFinish}
        footer={
          <AuthSubmit loading={login.isPending} testId="login-submit">
            {t('auth.login')}
          </AuthSubmit>
        }
      >
        <EmailField />
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[schemaRule(loginBody.shape.password, t('validation.passwordRequired'))]}
        >
          <Input
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder={t('auth.passwordPlaceholder')}
          />
        </Form.Item>
      </Form>
      <nav className="flex justify-between px-4 py-2 text-sm">
        <Link to="/register" data-testid="to-register">
          {t('auth.noAccount')}
        </Link>
        <Link to="/forgot-password" data-testid="to-forgot">
          {t('auth.forgot')}
        </Link>
      </nav>
    </div>
  );
}
