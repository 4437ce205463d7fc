import type { TwoFactorSetupData } from '@coffer/contract/two-factor';
import { totpCode, secondFactorCode } from '@coffer/contract/two-factor';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { refreshCurrentUser, useCurrentUser } from '../../../lib/current-user';
import { toastSuccess } from '../../../lib/notify';
import { type FieldError, fieldErrorOf } from '../../../lib/form-errors';
import { CodeBox } from '../../../components/code-box';
import { DISABLE_FIELD_ERRORS, disableTwoFactor, ENABLE_FIELD_ERRORS, enableTwoFactor, setupTwoFactor } from '../api/two-factor';
import { OtpQr } from '../components/otp-qr';
import { SwapStepUp } from '../components/swap-step-up';
import { SecondFactorInput } from '../../../components/second-factor-input';

/** /settings/2fa: authenticator enrolment (QR + manual key, first code), recovery codes once, turning it off. */
export default function TwoFactorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const [setup, setSetup] = useState<TwoFactorSetupData | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  // Turning two-factor on needs the password (a stolen session alone cannot lock the owner out).
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  /** A wrong code or password, written under its field (the HTTP layer popped up the rest). */
  const [fieldError, setFieldError] = useState<FieldError<'code' | 'password'> | null>(null);
  const errorOf = (field: 'code' | 'password') => (fieldError?.field === field ? fieldError.message : null);
  const typeCode = (value: string) => {
    setCode(value);
    if (fieldError?.field === 'code') setFieldError(null);
  };
  const typePassword = (value: string) => {
    setPassword(value);
    if (fieldError?.field === 'password') setFieldError(null);
  };

  const run = async (action: () => Promise<void>, fields: typeof ENABLE_FIELD_ERRORS = {}) => {
    setBusy(true);
    setFieldError(null);
    try {
      await action();
    } catch (error) {
      setFieldError(fieldErrorOf(error, fields));
    } finally {
      setBusy(false);
    }
  };

  const start = () =>
    run(async () => {
      setSetup(await setupTwoFactor());
      setCode('');
    });
  const enable = () =>
    run(async () => {
      const { recoveryCodes: codes } = await enableTwoFactor({ code, password });
      setRecoveryCodes(codes);
      setSetup(null);
      setCode('');
      setPassword('');
    }, ENABLE_FIELD_ERRORS);
  const finish = () =>
    run(async () => {
      setRecoveryCodes(null);
      await refreshCurrentUser(queryClient);
    });
  const disable = () =>
    run(async () => {
      await disableTwoFactor({ code });
      setCode('');
      toastSuccess(t('twoFactor.disabled'));
      await refreshCurrentUser(queryClient);
    }, DISABLE_FIELD_ERRORS);

  if (recoveryCodes) {
    return (
      <section className="wallet-card flex flex-col gap-3" data-testid="2fa-recovery">
        <h3 className="wallet-card-title m-0">{t('twoFactor.recoveryTitle')}</h3>
        <p className="wallet-muted m-0">{t('twoFactor.recoveryHint')}</p>
        <ol className="chain-mono m-0 grid grid-cols-2 gap-1 pl-6" data-testid="2fa-recovery-codes">
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ol>
        <Button
          block
          onClick={async () => {
            if (await copyText(recoveryCodes.join('\n'))) toastSuccess(t('twoFactor.copied'));
          }}
          data-testid="2fa-recovery-copy"
        >
          {t('twoFactor.copyCodes')}
        </Button>
        <Button block color="primary" loading={busy} onClick={finish} data-testid="2fa-done">
          {t('twoFactor.savedThem')}
        </Button>
      </section>
    );
  }

  if (user.data?.twoFactor) {
    return (
      <section className="wallet-card flex flex-col gap-3">
        <div className="wallet-card-title" data-testid="2fa-status">
          {t('twoFactor.on')}
        </div>
        <SwapStepUp on={user.data.stepUpSwaps === true} />
        <p className="wallet-muted m-0">{t('twoFactor.disableHint')}</p>
        <SecondFactorInput value={code} onChange={typeCode} testId="2fa-disable-code" error={errorOf('code')} />
        <Button
          block
          color="danger"
          fill="outline"
          loading={busy}
          disabled={!secondFactorCode.safeParse(code).success}
          onClick={disable}
          data-testid="2fa-disable"
        >
          {t('twoFactor.disable')}
        </Button>
      </section>
    );
  }

  if (setup) {
    return (
      <section className="wallet-card flex flex-col gap-3">
        <p className="wallet-muted m-0">{t('twoFactor.scan')}</p>
        <OtpQr value={setup.uri} label={t('twoFactor.qrLabel')} />
        <div className="wallet-muted">{t('twoFactor.manualKey')}</div>
        <div className="flex items-center gap-2">
          <span className="chain-mono" data-testid="2fa-secret">
            {setup.secret}
          </span>
          <Button
            size="mini"
            onClick={async () => {
              if (await copyText(setup.secret)) toastSuccess(t('twoFactor.copied'));
            }}
            data-testid="2fa-secret-copy"
          >
            {t('twoFactor.copy')}
          </Button>
        </div>
        <CodeBox
          value={code}
          onChange={typeCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t('twoFactor.codePlaceholder')}
          label={t('twoFactor.codePlaceholder')}
          testId="2fa-code"
          error={errorOf('code')}
        />
        <div className="wallet-muted">{t('twoFactor.passwordHint')}</div>
        <CodeBox
          type="password"
          value={password}
          onChange={typePassword}
          autoComplete="current-password"
          placeholder={t('twoFactor.passwordPlaceholder')}
          label={t('twoFactor.passwordPlaceholder')}
          testId="2fa-password"
          error={errorOf('password')}
        />
        <Button
          block
          color="primary"
          loading={busy}
          disabled={!totpCode.safeParse(code).success || password.length === 0}
          onClick={enable}
          data-testid="2fa-enable"
        >
          {t('twoFactor.enable')}
        </Button>
      </section>
    );
  }

  return (
    <section className="wallet-card flex flex-col gap-3">
      <div className="wallet-card-title" data-testid="2fa-status">
        {t('twoFactor.off')}
      </div>
      <p className="wallet-muted m-0">{t('twoFactor.intro')}</p>
      <Button block color="primary" loading={busy} onClick={start} data-testid="2fa-setup">
        {t('twoFactor.setup')}
      </Button>
    </section>
  );
}
