import { loginBody } from '@coffer/contract/auth';
import { ErrorCode } from '@coffer/contract/errors';
import { type SecondFactorRequired, secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Form, Input } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { isApiError } from '@coffer/api-client/api-error';
import { refreshCurrentUser } from '../../../lib/current-user';
import { showFieldError } from '../../../lib/form-errors';
import { NO_NATIVE_VALIDATION, schemaRule } from '../../../lib/form-rules';
import { loginSecondFactor, signInWithPasskey } from '../../../lib/sign-in';
import { returnPathFrom } from '../../../lib/sign-in-return';
import { toastDanger, toastSuccess } from '../../../lib/notify';
import { LOGIN_FIELD_ERRORS, useLogin } from '../api/login';
import { AuthSubmit, EmailField } from '../components/account-fields';
import { AuthHeader } from '../components/auth-header';
import { SecondFactorInput } from '../../../components/second-factor-input';

interface Values {
  email: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Where to go once signed in (lib/sign-in-return.ts).
  const { search } = useLocation();
  const login = useLogin();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  /** Set when the password was right but the account asks a second factor. */
  const [second, setSecond] = useState<SecondFactorRequired['secondFactor'] | null>(null);
  const [code, setCode] = useState('');
  /** A wrong or used code, under the field. */
  const [codeError, setCodeError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [usingPasskey, setUsingPasskey] = useState(false);

  const signedIn = async () => {
    // Public pages (home among them) do not run the guard's user fetch.
    await refreshCurrentUser(queryClient).catch(() => undefined);
    toastSuccess(t('auth.loginSuccess'));
    navigate(returnPathFrom(search), { replace: true });
  };

  const onFinish = async (values: Values) => {
    const body = loginBody.parse(values);
    let answer: Awaited<ReturnType<typeof login.mutateAsync>>;
    try {
      answer = await login.mutateAsync(body);
    } catch (error) {
      // A wrong password shows under its field; other refusals were popped up by the HTTP
      // layer. The form stays filled in for another try.
      showFieldError(form, error, LOGIN_FIELD_ERRORS);
      return;
    }
    if ('secondFactor' in answer) {
      setCode('');
      setSecond(answer.secondFactor);
      return;
    }
    await signedIn();
  };

  const verify = async () => {
    if (!second) return;
    setVerifying(true);
    setCodeError(null);
    try {
      await loginSecondFactor({ challenge: second.challenge, code });
    } catch (error) {
      // 2008: the challenge is over, back to the password.
      if (isApiError(error, ErrorCode.SECOND_FACTOR_EXPIRED)) setSecond(null);
      if (isApiError(error, ErrorCode.WRONG_SECOND_FACTOR)) setCodeError(error.message);
      return;
    } finally {
      setVerifying(false);
    }
    await signedIn();
  };

  /** Passwordless, or the second step of a password sign-in (`challenge`). */
  const passkey = async (challenge?: string) => {
    setUsingPasskey(true);
    try {
      await signInWithPasskey(challenge);
    } catch (error) {
      // API refusals were shown by the HTTP layer; the browser's own (cancelled, none found) here.
      if (!isApiError(error)) toastDanger(t('passkeys.failed'));
      else if (isApiError(error, ErrorCode.SECOND_FACTOR_EXPIRED)) setSecond(null);
      return;
    } finally {
      setUsingPasskey(false);
    }
    await signedIn();
  };

  if (second) {
    return (
      <div className="auth-page">
        <AuthHeader title={t('twoFactor.loginTitle')} subtitle={t('twoFactor.loginHint')} />
        <div className="flex flex-col gap-3 px-4">
          <SecondFactorInput
            value={code}
            onChange={(value) => {
              setCode(value);
              setCodeError(null);
            }}
            testId="login-2fa-code"
            error={codeError}
          />
          <Button
            block
            color="primary"
            size="large"
            loading={verifying}
            disabled={!secondFactorCode.safeParse(code).success}
            onClick={verify}
            data-testid="login-2fa-submit"
          >
            {t('twoFactor.verify')}
          </Button>
          {second.methods.includes('passkey') ? (
            <Button block size="large" loading={usingPasskey} onClick={() => passkey(second.challenge)} data-testid="login-2fa-passkey">
              {t('passkeys.useInstead')}
            </Button>
          ) : null}
          <Button block fill="none" onClick={() => setSecond(null)} data-testid="login-2fa-back">
            {t('auth.backToLogin')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="auth-page">
      {/* No nav bar here (spec): a guest sent from a tab still needs a way out. */}
      <button
        type="button"
        className="auth-close"
        aria-label={t('auth.backHome')}
        onClick={() => navigate('/', { replace: true })}
        data-testid="login-close"
      >
        <CloseOutline aria-hidden />
      </button>
      <AuthHeader title={t('auth.welcome')} subtitle={t('auth.tagline')} />
      <Form
        {...NO_NATIVE_VALIDATION}
        form={form}
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
          <Input name="password" type="password" autoComplete="current-password" placeholder={t('auth.passwordPlaceholder')} />
        </Form.Item>
      </Form>
      <div className="px-4">
        <Button block size="large" loading={usingPasskey} onClick={() => passkey()} data-testid="login-passkey">
          {t('passkeys.signIn')}
        </Button>
      </div>
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
