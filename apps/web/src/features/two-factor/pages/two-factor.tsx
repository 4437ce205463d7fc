import type { TwoFactorSetupData } from '@coffer/contract/two-factor';
import { totpCode, secondFactorCode } from '@coffer/contract/two-factor';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { refreshCurrentUser, useCurrentUser } from '../../../lib/current-user';
import { toastSuccess } from '../../../lib/notify';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../api/two-factor';
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

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch {
      // The HTTP layer showed the refusal.
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
    });
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
    });

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
        <SecondFactorInput value={code} onChange={setCode} testId="2fa-disable-code" />
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
        <Input
          value={code}
          onChange={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t('twoFactor.codePlaceholder')}
          aria-label={t('twoFactor.codePlaceholder')}
          data-testid="2fa-code"
        />
        <div className="wallet-muted">{t('twoFactor.passwordHint')}</div>
        <Input
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
          placeholder={t('twoFactor.passwordPlaceholder')}
          aria-label={t('twoFactor.passwordPlaceholder')}
          data-testid="2fa-password"
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
