import { NICKNAME_MAX, nickname, registerBody } from '@coffer/contract/auth';
import { Form, Input } from 'antd-mobile';
import { NO_NATIVE_VALIDATION } from '../../../lib/form-rules';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { refreshCurrentUser } from '../../../lib/current-user';
import { returnPathFrom } from '../../../lib/sign-in-return';
import { showFieldError } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/notify';
import { isSignedIn } from '../../../lib/session';
import { REGISTER_FIELD_ERRORS, useRegister } from '../api/register';
import { AuthHeader } from '../components/auth-header';
import { AuthSubmit, EmailCodeField, EmailField, NewPasswordFields } from '../components/account-fields';

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
  const { search } = useLocation();
  const register = useRegister();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();

  const onFinish = async (values: Values) => {
    const body = registerBody.parse({
      email: values.email,
      code: values.code,
      password: values.password,
      nickname: values.nickname?.trim() ? values.nickname : undefined,
    });
    try {
      await register.mutateAsync(body);
    } catch (error) {
      // E-mail taken or a wrong code shows under its field; the rest was popped up.
      showFieldError(form, error, REGISTER_FIELD_ERRORS);
      return;
    }
    toastSuccess(t('auth.registerSuccess'));
    // A server that signs the user in on sign-up returned a token, which is now stored.
    if (!isSignedIn()) {
      navigate({ pathname: '/login', search }, { replace: true });
      return;
    }
    await refreshCurrentUser(queryClient).catch(() => undefined);
    navigate(returnPathFrom(search), { replace: true });
  };

  return (
    <div className="auth-page">
      <AuthHeader title={t('auth.createAccount')} subtitle={t('auth.tagline')} />
      <Form
        {...NO_NATIVE_VALIDATION}
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <AuthSubmit loading={register.isPending} testId="register-submit">
            {t('auth.register')}
          </AuthSubmit>
        }
      >
        <EmailField />
        <EmailCodeField form={form} type="register" />
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
        <NewPasswordFields form={form} passwordLabel={t('auth.password')} />
      </Form>
      <nav className="flex justify-center px-4 py-2 text-sm">
        <Link to={{ pathname: '/login', search }} data-testid="to-login">
          {t('auth.haveAccount')}
        </Link>
      </nav>
    </div>
  );
}
