import type { Currency, TransferResult } from '@coffer/contract/ledger';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { checkAmountInput } from '../../../lib/amount-input';
import { isApiError } from '@coffer/api-client/api-error';
import { useCurrentUser } from '../../../lib/current-user';
import { fieldErrorOf } from '../../../lib/form-errors';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import { useStepUp } from '../../../lib/step-up';
import { useBalance, useBalances } from '../../../lib/wallet/balances';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { useSendTransfer } from '../api/send-transfer';
import { TRANSFER_FIELD_ERRORS } from '../api/transfer-fields';
import { useRecipientLookup } from './use-recipient-lookup';

/**
 * The transfer form: recipient, currency, amount and memo, their checks, the confirmation
 * step and the send. Everything shown is derived from these on each render.
 */
export function useTransferForm() {
  const { t } = useTranslation();
  const options = enabledCurrencies(useCurrencies().data);
  const balances = useBalances();
  const send = useSendTransfer();
  // With two-factor on, the code (or a passkey) inline under the form (decision 033).
  const stepUp = useStepUp(useCurrentUser().data?.twoFactor === true);
  // One key per submit; kept across a retry after a transport failure (the first attempt
  // may have gone through), renewed after a refusal, a success or any change to the form.
  const idempotencyKey = useRef<string | null>(null);
  const edited = () => {
    idempotencyKey.current = null;
  };
  const recipient = useRecipientLookup(edited);

  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [amount, setAmountState] = useState('');
  const [memo, setMemoState] = useState('');
  /** The server's refusal of the last send that concerns the amount (insufficient, out of range). */
  const [serverAmountError, setServerAmountError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<TransferResult | null>(null);

  const currency: Currency | undefined = options.find((c) => c.id === currencyId) ?? options[0];
  const balance = useBalance(currency?.id);
  const available = balance.data?.available ?? null;
  const rules = currency ? { decimals: currency.decimals, min: currency.transferMin, max: currency.transferMax, available } : null;
  const check = rules ? checkAmountInput(amount, rules) : null;
  const localAmountError = check && !check.ok && rules && currency ? amountErrorText(t, check.error, rules, currency) : null;
  const amountError = serverAmountError ?? (showErrors ? localAmountError : null);

  const setAmount = (value: string) => {
    setAmountState(value);
    setServerAmountError(null);
    edited();
  };
  const setMemo = (value: string) => {
    setMemoState(value);
    edited();
  };
  const pickCurrency = (picked: Currency) => {
    setCurrencyId(picked.id);
    setAmount('');
  };

  /** Next: show what is wrong, or the confirmation sheet. */
  const openConfirm = () => {
    setShowErrors(true);
    if (!recipient.recipient || !check?.ok || !currency || serverAmountError || !stepUp.ready) return;
    idempotencyKey.current ??= newIdempotencyKey();
    setConfirming(true);
  };

  const submit = async () => {
    const target = recipient.target;
    if (!target || !check?.ok || !currency || !idempotencyKey.current) return;
    const trimmedMemo = memo.trim();
    try {
      const proof = await stepUp.proof();
      const sent = await send.mutateAsync({
        to: target,
        currencyId: currency.id,
        amount: check.value,
        ...(trimmedMemo ? { memo: trimmedMemo } : {}),
        idempotencyKey: idempotencyKey.current,
        proof,
      });
      idempotencyKey.current = null;
      setConfirming(false);
      setResult(sent);
      stepUp.reset();
      void balance.refetch();
    } catch (error) {
      // The second factor was missing, wrong or not confirmed: asked again under its field.
      if (stepUp.refuse(error)) {
        idempotencyKey.current = null;
        setConfirming(false);
        return;
      }
      // A transport failure keeps the sheet and the key: trying again cannot send twice.
      if (!isApiError(error)) return;
      idempotencyKey.current = null;
      setConfirming(false);
      const inline = fieldErrorOf(error, TRANSFER_FIELD_ERRORS);
      if (inline?.field === 'recipient') recipient.refuse(inline.message);
      else if (inline?.field === 'amount') {
        setServerAmountError(inline.message);
        void balance.refetch();
      }
    }
  };

  const again = () => {
    setResult(null);
    setAmount('');
    setMemoState('');
    setShowErrors(false);
  };

  return {
    stepUp,
    recipient,
    options,
    currency,
    available,
    availableById: new Map(balances.data?.map((b) => [b.currencyId, b.available]) ?? []),
    amount,
    setAmount,
    amountError,
    checkedAmount: check?.ok ? check.value : null,
    memo,
    setMemo,
    pickCurrency,
    showErrors,
    confirming,
    setConfirming,
    pending: send.isPending,
    openConfirm,
    submit,
    result,
    again,
  };
}
