import { RESET_REMOVES_PASSKEYS_DAYS, resetPasswordBody } from '@coffer/contract/auth';
import { Checkbox, Form } from 'antd-mobile';
import { NO_NATIVE_VALIDATION } from '../../../lib/form-rules';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { showFieldError } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/notify';
import { clearSession } from '../../../lib/session';
import { RESET_FIELD_ERRORS, useResetPassword } from '../api/reset-password';
import { AuthSubmit, EmailCodeField, EmailField, NewPasswordFields } from '../components/account-fields';

interface Values {
  email: string;
  code: string;
  password: string;
  confirm: string;
  removeRecentPasskeys: boolean;
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const resetPassword = useResetPassword();
  const [form] = Form.useForm<Values>();

  const onFinish = async (values: Values) => {
    const body = resetPasswordBody.parse({
      email: values.email,
      code: values.code,
      password: values.password,
      removeRecentPasskeys: values.removeRecentPasskeys,
    });
    try {
      await resetPassword.mutateAsync(body);
    } catch (error) {
      // A wrong code shows under its field; the rest was popped up.
      showFieldError(form, error, RESET_FIELD_ERRORS);
      return;
    }
    // A reset revokes every session on the server; drop ours too.
    clearSession();
    toastSuccess(t('auth.resetSuccess'));
    navigate({ pathname: '/login', search }, { replace: true });
  };

  return (
    <div className="auth-page">
      <Form
        {...NO_NATIVE_VALIDATION}
        form={form}
        layout="vertical"
        onFinish={onFinish}
        footer={
          <AuthSubmit loading={resetPassword.isPending} testId="reset-submit">
            {t('auth.reset')}
          </AuthSubmit>
        }
      >
        <EmailField />
        <EmailCodeField form={form} type="reset" />
        <NewPasswordFields form={form} passwordLabel={t('auth.newPassword')} />
        {/* Checked by default: a thief's passkey must not outlive the reset (docs/security.md). */}
        <Form.Item name="removeRecentPasskeys" valuePropName="checked" initialValue={true}>
          <Checkbox data-testid="reset-remove-passkeys">{t('auth.removeRecentPasskeys', { days: RESET_REMOVES_PASSKEYS_DAYS })}</Checkbox>
        </Form.Item>
      </Form>
      <nav className="flex justify-center px-4 py-2 text-sm">
        <Link to={{ pathname: '/login', search }} data-testid="to-login">
          {t('auth.backToLogin')}
        </Link>
      </nav>
    </div>
  );
}
