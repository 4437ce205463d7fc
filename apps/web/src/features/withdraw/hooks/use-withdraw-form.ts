import { type WithdrawRecord, withdrawApplyBody } from '@coffer/contract/chain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import { useCurrentUser } from '../../../lib/current-user';
import { useStepUp } from '../../../lib/step-up';
import { useSecurityHold } from '../api/security-hold';
import type { WithdrawSummary } from '../components/withdraw-confirm';
import { amountMessage } from '../utils/amount-message';
import { allAmount, checkWithdrawAmount, withdrawTotal } from '../utils/withdraw-amount';
import { useAddressVerdict } from './use-address-verdict';
import { useFeeQuote } from './use-fee-quote';
import { useWithdrawFields, type WithdrawField } from './use-withdraw-fields';
import { useWithdrawSubmit } from './use-withdraw-submit';
import { useWithdrawTarget } from './use-withdraw-target';

/**
 * The withdrawal form: currency, network, address, amount, the e-mail code and (with
 * two-factor on) the authenticator code; their checks, the confirmation and the request.
 * Every message is derived on render from the values and the server's last refusal.
 * Its parts: where it goes (useWithdrawTarget), what was typed (useWithdrawFields), the
 * address's verdict (useAddressVerdict), the fee quote (useFeeQuote), the request and its
 * outcomes (useWithdrawSubmit).
 */
export function useWithdrawForm() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const hold = useSecurityHold();
  const target = useWithdrawTarget();
  const { currency, network, limitsData, decimals, frozen } = target;
  const fields = useWithdrawFields({ currency: target.setCurrencyId, network: target.setNetworkId });
  const { values, serverErrors, idempotencyKey } = fields;
  const [summary, setSummary] = useState<WithdrawSummary | null>(null);
  const [result, setResult] = useState<WithdrawRecord | null>(null);

  /** A security hold after a credential change: withdrawals wait (the page says how long). */
  const held = Boolean(hold.data?.hold);
  const verdict = useAddressVerdict(network, values.address);
  const { addressCheck, remoteProblem } = verdict;
  // The fee is quoted from the chain before the code step and renewed before it runs out
  // (docs/decisions/040); the limits' fee is only its floor.
  const feeQuote = useFeeQuote(network?.id, verdict.quoteAddress, !frozen && !held);
  const quoted = feeQuote.data?.networkId === network?.id ? feeQuote.data : undefined;
  const priced = limitsData && quoted ? { ...limitsData, fee: quoted.fee } : limitsData;
  const amountCheck = checkWithdrawAmount(values.amount, decimals, priced);
  // With two-factor on, the code (or a passkey) inline under the form (decision 033).
  const stepUp = useStepUp(user.data?.twoFactor === true);

  const errors: Record<WithdrawField, string | null> = {
    address:
      serverErrors.address ??
      (addressCheck && !addressCheck.ok
        ? t(addressCheck.error === 'required' ? 'withdraw.errors.addressRequired' : 'withdraw.errors.addressShape')
        : remoteProblem),
    amount: serverErrors.amount ?? amountMessage(t, amountCheck, currency, limitsData, priced, decimals),
    code: serverErrors.code ?? (withdrawApplyBody.shape.code.safeParse(values.code).success ? null : t('validation.code')),
  };
  /** What the page shows under each field: local checks once Next was pressed, the server's at once. */
  const shown = (field: WithdrawField) =>
    fields.showErrors ? errors[field] : field === 'address' ? (serverErrors.address ?? remoteProblem) : null;

  const openConfirm = () => {
    fields.setShowErrors(true);
    if (!currency || !network || frozen || held || !limitsData || !quoted) return;
    if (!addressCheck?.ok || !amountCheck.ok || !stepUp.ready || Object.values(errors).some((error) => error !== null)) return;
    // The contract's schema has the last word on the body's shape.
    const body = withdrawApplyBody.safeParse({
      currencyId: currency.id,
      networkId: network.id,
      address: addressCheck.value,
      amount: amountCheck.value,
      code: values.code,
      quoteId: quoted.quoteId,
    });
    if (!body.success) return;
    idempotencyKey.current ??= newIdempotencyKey();
    feeQuote.dismissChange();
    setSummary({ network, address: body.data.address, amount: body.data.amount });
  };
  /** The sheet shows the fee of the quote now: renewed while it is open, it shows the new one (and says so). */
  const summaryView =
    summary && quoted ? { ...summary, fee: quoted.fee, total: withdrawTotal(summary.amount, quoted.fee), feesHigh: quoted.feesHigh } : null;

  const { submit, pending } = useWithdrawSubmit({
    summary,
    currency,
    code: values.code,
    quoteId: quoted?.quoteId,
    idempotencyKey,
    stepUp,
    feeQuote,
    refetch: { networks: target.networks.refetch, hold: hold.refetch, limits: target.limits.refetch },
    closeSummary: () => setSummary(null),
    done: (record) => {
      setSummary(null);
      setResult(record);
    },
    refusedField: fields.refusedField,
  });

  const again = () => {
    setResult(null);
    fields.clearForNext();
    stepUp.reset();
  };

  return {
    currencies: target.currencies,
    networks: target.networks,
    user: user.data,
    options: target.options,
    currency,
    currencyNetworks: target.currencyNetworks,
    network,
    limits: target.limits,
    limitsData,
    decimals,
    frozen,
    hold,
    held,
    values,
    addressNotes: verdict.addressNotes,
    bookEntries: verdict.bookEntries,
    change: fields.change,
    shown,
    stepUp,
    showErrors: fields.showErrors,
    amountCheck,
    allValue: priced && quoted ? allAmount(priced.available, priced.fee, decimals) : null,
    feeQuote,
    quoted,
    summary: summaryView,
    closeSummary: () => setSummary(null),
    pending,
    openConfirm,
    submit,
    result,
    again,
  };
}

export type WithdrawForm = ReturnType<typeof useWithdrawForm>;
