import { isSecondFactorCode } from '@coffer/contract/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshCurrentUser } from '../../../lib/current-user';
import { toastSuccess } from '../../../lib/notify';
import { fieldErrorOf } from '../../../lib/form-errors';
import { SWAPS_FIELD_ERRORS, setStepUpSwaps } from '../api/two-factor';
import { SecondFactorInput } from '../../../components/second-factor-input';

/**
 * Whether swaps ask for the second factor too (decision 033). Turning it on is one tap;
 * turning it off asks for a code, so a stolen session cannot switch the protection off.
 */
export function SwapStepUp({ on }: { on: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  /** A wrong code, written under the field (the HTTP layer pops up what has no field). */
  const [codeError, setCodeError] = useState<string | null>(null);
  const typeCode = (value: string) => {
    setCode(value);
    setCodeError(null);
  };

  const save = async (enabled: boolean, totp?: string) => {
    setBusy(true);
    setCodeError(null);
    try {
      await setStepUpSwaps({ enabled, ...(totp && { totp }) });
      setTurningOff(false);
      setCode('');
      toastSuccess(t('stepUp.swapsSaved'));
      await refreshCurrentUser(queryClient);
    } catch (error) {
      setCodeError(fieldErrorOf(error, SWAPS_FIELD_ERRORS)?.message ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2" data-testid="2fa-swaps">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor="2fa-swaps-switch" className="wallet-card-title m-0">
          {t('stepUp.swapsTitle')}
        </label>
        <Switch
          checked={on && !turningOff}
          loading={busy}
          onChange={(checked) => (checked ? void save(true) : setTurningOff(true))}
          aria-label={t('stepUp.swapsTitle')}
          data-testid="2fa-swaps-switch"
        />
      </div>
      <p className="wallet-muted m-0">{t('stepUp.swapsHint')}</p>
      {turningOff && on ? (
        <>
          <p className="wallet-muted m-0">{t('stepUp.swapsOffHint')}</p>
          <SecondFactorInput value={code} onChange={typeCode} testId="2fa-swaps-code" error={codeError} />
          <Button
            block
            fill="outline"
            loading={busy}
            disabled={!isSecondFactorCode(code)}
            onClick={() => void save(false, code.trim())}
            data-testid="2fa-swaps-off"
          >
            {t('stepUp.swapsTurnOff')}
          </Button>
        </>
      ) : null}
    </div>
  );
}
