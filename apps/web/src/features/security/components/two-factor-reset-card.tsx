import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecondFactorInput } from '../../../components/second-factor-input';
import { fieldErrorOf } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/notify';
import { formatDateTime } from '../../../lib/wallet/format';
import { RESET_CANCEL_FIELD_ERRORS, useCancelTwoFactorReset, useTwoFactorReset } from '../api/security';

/** An operator opened a reset of the user's two-factor: when it completes, and cancelling it with a code. */
export function TwoFactorResetCard() {
  const { t } = useTranslation();
  const twoFactorReset = useTwoFactorReset();
  const cancelReset = useCancelTwoFactorReset();
  const [resetCode, setResetCode] = useState('');
  /** A wrong code, written under the field like the two-factor page's (the HTTP layer pops up the rest). */
  const [resetCodeError, setResetCodeError] = useState<string | null>(null);
  const pendingReset = twoFactorReset.data?.pending;
  if (!pendingReset) return null;

  const typeResetCode = (value: string) => {
    setResetCode(value);
    setResetCodeError(null);
  };
  const confirmCancelReset = async () => {
    setResetCodeError(null);
    try {
      await cancelReset.mutateAsync(resetCode.trim());
      setResetCode('');
      toastSuccess(t('twoFactor.resetCancelled'));
    } catch (error) {
      setResetCodeError(fieldErrorOf(error, RESET_CANCEL_FIELD_ERRORS)?.message ?? null);
    }
  };

  return (
    <section className="wallet-card flex flex-col gap-2" data-testid="security-2fa-reset">
      <div className="wallet-card-title">{t('security.twoFactorReset')}</div>
      <p className="wallet-muted m-0">{t('twoFactor.resetPending', { date: formatDateTime(pendingReset.completesAt) })}</p>
      <p className="wallet-muted m-0">{t('twoFactor.resetCancelHint')}</p>
      <SecondFactorInput value={resetCode} onChange={typeResetCode} testId="security-2fa-reset-code" error={resetCodeError} />
      <Button
        block
        color="danger"
        fill="outline"
        disabled={!secondFactorCode.safeParse(resetCode).success}
        loading={cancelReset.isPending}
        onClick={confirmCancelReset}
        data-testid="security-2fa-reset-cancel"
      >
        {t('twoFactor.resetCancel')}
      </Button>
    </section>
  );
}
