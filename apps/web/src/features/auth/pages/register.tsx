import { email, emailCode, NICKNAME_MAX, nickname, PASSWORD_MAX, PASSWORD_MIN, password, registerBody } from '@coffer/contract/auth';
import { Button, Form, Input } from 'antd-mobile';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { refreshCurrentUser } from '../../../lib/current-user';
import { schemaRule } from '../../../lib/form-rules';
import { toastSuccess } from '../../../lib/notify';
import { isSignedIn } from '../../../lib/session';
import { useRegister } from '../api/register';
import { AuthHeader } from '../components/auth-header';
import { SendCodeButton } from '../components/send-code-button';

interface Values {
  email: string;
  code: string;
  nickname?: string;
  password: string;
  confirm: string;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const register = useRegister();
  const queryClient = useQueryClient();
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
    const body = registerBody.parse({
      email: values.email,
      code: values.code,
      password: values.password,
      nickname: values.nickname?.trim() ? values.nickname : undefined,
    });
    try {
      await register.mutateAsync(body);
    } catch {
      return;
    }
    toastSuccess(t('auth.registerSuccess'));
    // A server that signs the user in on sign-up returned a token, which is now stored.
    if (!isSignedIn()) {
      navigate('/login', { replace: true });
      return;
    }
    await refreshCurrentUser(queryClient).catch(() => undefined);
    navigate('/', { replace: true });
  };

  return (
    <div className="auth-page">
      <AuthHeader title={t('auth.createAccount')} subtitle={t('auth.tagline')} />
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
            loading={register.isPending}
            data-testid="register-submit"
          >
            {t('auth.register')}
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
          extra={<SendCodeButton type="register" getEmail={getEmail} />}
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
          name="nickname"
          label={t('auth.nickname')}
          rules={[
            {
              validator: async (_rule: unknown, value: unknown) => {
                if (typeof value === 'string' && value.trim() && !nickname.safeParse(value).success) {
                  throw new Error(t('validation.nickname', { max: NICKNAME_MAX }));
                }
              },
            },
          ]}
        >
          <Input name="nickname" autoComplete="nickname" maxLength={NICKNAME_MAX} placeholder={t('auth.nicknamePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.password')}
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
          {t('auth.haveAccount')}
        </Link>
      </nav>
    </div>
  );
}
