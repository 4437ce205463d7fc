import type { SecurityHoldData } from '@coffer/contract/holds';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Input } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@coffer/api-client/api-error';
import { toastSuccess } from '../../../lib/notify';
import { useCancelHold } from '../api/security-hold';

/** How often the time left is redrawn. */
const REDRAW_EVERY_MS = 30_000;

/** Seconds left now, counted down from the server's figure at the time it answered. */
function useSecondsLeft(secondsLeft: number, answeredAt: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), REDRAW_EVERY_MS);
    return () => window.clearInterval(timer);
  }, []);
  return Math.max(0, secondsLeft - Math.floor((now - answeredAt) / 1000));
}

/**
 * The withdrawal hold after a credential change (docs/security.md): why, how long is left,
 * and, for a user with two-step verification, ending it early with a code.
 */
export function WithdrawHold({ state, answeredAt, onEnded }: { state: SecurityHoldData; answeredAt: number; onEnded: () => void }) {
  const { t } = useTranslation();
  const hold = state.hold!;
  const seconds = useSecondsLeft(hold.secondsLeft, answeredAt);
  const cancel = useCancelHold();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const left = t('withdraw.hold.left', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });

  useEffect(() => {
    if (seconds === 0) onEnded();
  }, [seconds, onEnded]);

  const submit = async () => {
    if (!secondFactorCode.safeParse(code).success) {
      setError(t('twoFactor.codeRequired'));
      return;
    }
    try {
      await cancel.mutateAsync({ id: hold.id, code });
      toastSuccess(t('withdraw.hold.ended'));
      onEnded();
    } catch (e) {
      if (isApiError(e)) setError(e.message);
    }
  };

  return (
    <section className="wallet-card" role="alert" data-testid="withdraw-hold">
      <div className="wallet-card-title">{t('withdraw.hold.title')}</div>
      <div className="chain-warning">
        <div data-testid="withdraw-hold-left">{left}</div>
        <div data-testid="withdraw-hold-reason">{t('withdraw.hold.reason', { reason: t(`withdraw.hold.reasons.${hold.reason}`) })}</div>
      </div>
      {state.canCancel ? (
        <div className="mt-3">
          <label htmlFor="withdraw-hold-code" className="wallet-muted block">
            {t('withdraw.hold.cancelHint')}
          </label>
          <div className={`withdraw-input mt-2${error === null ? '' : ' withdraw-input--invalid'}`}>
            <Input
              id="withdraw-hold-code"
              value={code}
              onChange={(v) => {
                setCode(v.trim().slice(0, 11));
                setError(null);
              }}
              autoComplete="one-time-code"
              maxLength={11}
              placeholder={t('twoFactor.codePlaceholder')}
              data-testid="withdraw-hold-code"
            />
            <Button
              size="small"
              color="primary"
              loading={cancel.isPending}
              onClick={() => void submit()}
              data-testid="withdraw-hold-cancel"
            >
              {t('withdraw.hold.cancel')}
            </Button>
          </div>
          {error === null ? null : (
            <div className="wallet-error" data-testid="withdraw-hold-error">
              {error}
            </div>
          )}
        </div>
      ) : (
        <div className="wallet-muted mt-2" data-testid="withdraw-hold-wait">
          {t('withdraw.hold.mustWait')}
        </div>
      )}
    </section>
  );
}
