import { PASSWORD_MAX, PASSWORD_MIN } from '@coffer/contract/auth';
import { newPassword } from '@coffer/contract/security';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { ErrorCode } from '@coffer/contract/errors';
import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '@coffer/api-client/api-error';
import { refreshCurrentUser, useCurrentUser } from '../../../lib/current-user';
import { showFieldError } from '../../../lib/form-errors';
import { NO_NATIVE_VALIDATION, schemaRule } from '../../../lib/form-rules';
import { toastSuccess } from '../../../lib/notify';
import { CHANGE_PASSWORD_FIELD_ERRORS, useChangePassword } from '../api/change-password';
import { AuthSubmit, NewPasswordFields } from '../components/account-fields';

interface Values {
  currentPassword: string;
  password: string;
  confirm: string;
  code?: string;
  signOutOthers: boolean;
}

/**
 * /settings/password (from the security centre): the current password, the second factor when
 * two-factor is on, a new password checked as at sign-up, and whether to sign out the other
 * devices. A wrong current password or code shows under its field.
 */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const needsCode = Boolean(useCurrentUser().data?.twoFactor);
  const change = useChangePassword();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();

  const onFinish = async (values: Values) => {
    try {
      const { signedOut } = await change.mutateAsync({
        currentPassword: values.currentPassword,
        newPassword: values.password,
        ...(needsCode && { code: values.code }),
        signOutOthers: values.signOutOthers,
      });
      toastSuccess(values.signOutOthers ? t('changePassword.doneSignedOut', { count: signedOut }) : t('changePassword.done'));
      navigate('/settings/security', { replace: true });
    } catch (error) {
      // Two-factor was turned on since this page loaded: fetch the user so the code field shows.
      if (isApiError(error, ErrorCode.SECOND_FACTOR_REQUIRED) && !needsCode) {
        await refreshCurrentUser(queryClient).catch(() => {});
      }
      // A wrong current password or code shows under its field; the rest was popped up.
      showFieldError(form, error, CHANGE_PASSWORD_FIELD_ERRORS);
    }
  };

  return (
    <div className="auth-page" data-testid="change-password-page">
      <Form
        {...NO_NATIVE_VALIDATION}
        form={form}
        layout="vertical"
        initialValues={{ signOutOthers: true }}
        onFinish={onFinish}
        footer={
          <AuthSubmit loading={change.isPending} testId="change-password-submit">
            {t('changePassword.submit')}
          </AuthSubmit>
        }
      >
        <Form.Item
          name="currentPassword"
          label={t('changePassword.current')}
          rules={[{ required: true, message: t('validation.passwordRequired') }]}
        >
          <Input name="currentPassword" type="password" autoComplete="current-password" placeholder={t('auth.passwordPlaceholder')} />
        </Form.Item>
        <NewPasswordFields
          form={form}
          passwordLabel={t('auth.newPassword')}
          schema={newPassword}
          invalidMessage={t('changePassword.invalid', { min: PASSWORD_MIN, max: PASSWORD_MAX })}
        />
        {needsCode && (
          <Form.Item
            name="code"
            label={t('twoFactor.withdrawCode')}
            help={t('twoFactor.withdrawHint')}
            rules={[schemaRule(secondFactorCode, t('twoFactor.codeRequired'))]}
          >
            <Input name="code" inputMode="text" autoComplete="one-time-code" placeholder={t('twoFactor.codePlaceholder')} />
          </Form.Item>
        )}
        <Form.Item name="signOutOthers" valuePropName="checked">
          <Checkbox data-testid="change-password-sign-out-others">{t('changePassword.signOutOthers')}</Checkbox>
        </Form.Item>
      </Form>
    </div>
  );
}
