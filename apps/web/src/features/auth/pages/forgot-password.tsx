import { email, emailCode, PASSWORD_MAX, PASSWORD_MIN, password, resetPasswordBody } from '@coffer/contract/auth';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { schemaRule } from '../../../lib/form-rules';
import { toastSuccess } from '../../../lib/notify';
import { clearSession } from '../../../lib/session';
import { useResetPassword } from '../api/reset-password';
import { SendCodeButton } from '../components/send-code-button';

interface Values {
  email: string;
  code: string;
  password: string;
  confirm: string;
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const resetPassword = useResetPassword();
  const [form] = Form.useForm<Values>();

  const getEmail = async () => {
    try {
      const values = await form.validateFields(['email']);
      return email.parse(values.email);
    } catch {
      return null;
    }
  };

  const onFinish = async (values: Values) => {
    const body = resetPasswordBody.parse({ email: values.email, code: values.code, password: values.password });
    try {
      await resetPassword.mutateAsync(body);
    } catch {
      return;
    }
    // A reset revokes every session on the server; drop ours too.
    clearSession();
    toastSuccess(t('auth.resetSuccess'));
    navigate('/login', { replace: true });
  };

  return (
    <div className="auth-page">
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <Button
            block
            type="submit"
            color="primary"
            size="large"
            loading={resetPassword.isPending}
            data-testid="reset-submit"
          >
            {t('auth.reset')}
          </Button>
        }
      >
        <Form.Item name="email" label={t('auth.email')} rules={[schemaRule(email, t('validation.email'))]}>
          <Input name="email" type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} clearable />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('auth.code')}
          rules={[schemaRule(emailCode, t('validation.code'))]}
          extra={<SendCodeButton type="reset" getEmail={getEmail} />}
        >
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t('auth.codePlaceholder')}
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.newPassword')}
          rules={[schemaRule(password, t('validation.password', { min: PASSWORD_MIN, max: PASSWORD_MAX }))]}
        >
          <Input
            name="password"
            type="password"
            autoComplete="new-password"
            placeholder={t('auth.newPasswordPlaceholder', { min: PASSWORD_MIN })}
          />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth.confirmPassword')}
          dependencies={['password']}
          rules={[
            {
              validator: async (_rule: unknown, value: unknown) => {
                if (value !== form.getFieldValue('password')) throw new Error(t('validation.passwordMismatch'));
              },
            },
          ]}
        >
          <Input
            name="confirm"
            type="password"
            autoComplete="new-password"
            placeholder={t('auth.confirmPasswordPlaceholder')}
          />
        </Form.Item>
      </Form>
      <nav className="flex justify-center px-4 py-2 text-sm">
        <Link to="/login" data-testid="to-login">
          {t('auth.backToLogin')}
        </Link>
      </nav>
    </div>
  );
}
