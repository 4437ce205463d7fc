import { EMAIL_CODE_LENGTH, email, emailCode, type MailType, PASSWORD_MAX, PASSWORD_MIN, password } from '@coffer/contract/auth';
import { Button, Form, Input } from 'antd-mobile';
import type { ReactNode } from 'react';
import type { FormInstance } from 'antd-mobile/es/components/form';
import type { ZodType } from 'zod';
import { useTranslation } from 'react-i18next';
import { schemaRule } from '../../../lib/form-rules';
import { SendCodeButton } from '../../../components/send-code-button';
import { loadPasswordStrength } from '../lib/password-strength';
import { PasswordStrengthMeter } from './password-strength-meter';

/** The e-mail, mailed code and new-password fields that register and reset share. */

export function EmailField() {
  const { t } = useTranslation();
  return (
    <Form.Item name="email" label={t('auth.email')} rules={[schemaRule(email, t('validation.email'))]}>
      <Input name="email" type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} clearable />
    </Form.Item>
  );
}

/** The code field with its send button; the button mails to the form's validated e-mail. */
export function EmailCodeField({ form, type }: { form: FormInstance; type: MailType }) {
  const { t } = useTranslation();
  const getEmail = async () => {
    try {
      const values = await form.validateFields(['email']);
      return email.parse(values.email);
    } catch {
      return null;
    }
  };
  return (
    <Form.Item
      name="code"
      label={t('auth.code')}
      rules={[schemaRule(emailCode, t('validation.code'))]}
      extra={<SendCodeButton type={type} getEmail={getEmail} />}
    >
      <Input
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={EMAIL_CODE_LENGTH}
        placeholder={t('auth.codePlaceholder')}
      />
    </Form.Item>
  );
}

/**
 * A new password and its confirmation, checked against the contract's password rule and the
 * shared common-password rule (loaded lazily, as the server refuses the same), with a strength
 * meter while typing.
 */
export function NewPasswordFields({
  form,
  passwordLabel,
  schema = password,
  invalidMessage,
}: {
  form: FormInstance;
  passwordLabel: string;
  /** The contract's rule for this password (the security centre also refuses control characters) and what breaking it says. */
  schema?: ZodType<string>;
  invalidMessage?: string;
}) {
  const { t } = useTranslation();
  const typed: unknown = Form.useWatch('password');
  const notCommon = {
    validator: async (_rule: unknown, value: unknown) => {
      if (typeof value !== 'string' || !schema.safeParse(value).success) return;
      // Without the rule (offline), the server still refuses and its message is shown.
      const check = await loadPasswordStrength().catch(() => null);
      if (check && !check(value).acceptable) throw new Error(t('validation.passwordCommon'));
    },
  };
  return (
    <>
      <Form.Item
        name="password"
        label={passwordLabel}
        rules={[schemaRule(schema, invalidMessage ?? t('validation.password', { min: PASSWORD_MIN, max: PASSWORD_MAX })), notCommon]}
        description={<PasswordStrengthMeter password={typeof typed === 'string' ? typed : ''} />}
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
        <Input name="confirm" type="password" autoComplete="new-password" placeholder={t('auth.confirmPasswordPlaceholder')} />
      </Form.Item>
    </>
  );
}

/** The full-width submit button of the sign-in, sign-up and reset forms. */
export function AuthSubmit({ loading, testId, children }: { loading: boolean; testId: string; children: ReactNode }) {
  return (
    <Button block type="submit" color="primary" size="large" loading={loading} data-testid={testId}>
      {children}
    </Button>
  );
}
