import type { Currency } from '@coffer/contract/ledger';
import { displayDecimals } from '@coffer/contract/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { checkAmountInput } from '../../../lib/amount-input';
import { isSignedIn } from '../../../lib/session';
import { useBalances } from '../../../lib/wallet/balances';
import { useCurrencies } from '../../../lib/wallet/currencies';
import { findPair, useSwapRates } from '../../../lib/wallet/swap-rates';
import { swapEstimate } from '../utils/estimate';
import { readSwapDraft } from '../utils/sign-in-draft';

function bySort(a: Currency, b: Currency) {
  return a.sort - b.sort;
}

/**
 * The swap form: what is sold and bought, the amount and its checks, derived on each render
 * from the pairs on offer. Until the user picks, the first currency that can be sold and the
 * first it can be swapped to are shown. `onEdited` hears every change (a quote is then stale).
 */
export function useSwapForm(onEdited: () => void) {
  const { t } = useTranslation();
  const signedIn = isSignedIn();
  const currencies = useCurrencies();
  const rates = useSwapRates();
  const balances = useBalances(signedIn);

  // Back from sign-in: the form as it was typed (decision 021).
  const { search } = useLocation();
  const [draft] = useState(() => readSwapDraft(search));
  const [pickedFrom, setPickedFrom] = useState<number | undefined>(draft.fromId);
  const [pickedTo, setPickedTo] = useState<number | undefined>(draft.toId);
  const [amount, setAmountState] = useState(draft.amount);
  /** The server's refusal of the last quote or swap that concerns the amount. */
  const [serverAmountError, setServerAmountError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);

  const pairs = rates.data?.list ?? [];
  const byId = new Map<number, Currency>(currencies.data?.map((c) => [c.id, c]) ?? []);
  const known = (ids: number[]) =>
    ids
      .map((id) => byId.get(id))
      .filter((c): c is Currency => c !== undefined)
      .sort(bySort);
  const fromOptions = known([...new Set(pairs.map((p) => p.fromCurrencyId))]);
  const toOptionsFor = (id: number | undefined) => known(pairs.filter((p) => p.fromCurrencyId === id).map((p) => p.toCurrencyId));

  const fromId = pickedFrom ?? fromOptions[0]?.id;
  const toId = pickedFrom === undefined ? toOptionsFor(fromId)[0]?.id : pickedTo;
  const from = fromId === undefined ? undefined : byId.get(fromId);
  const to = toId === undefined ? undefined : byId.get(toId);
  const pair = findPair(pairs, fromId, toId);
  const available = signedIn ? (balances.data?.find((b) => b.currencyId === fromId)?.available ?? null) : null;

  const rules = from ? { decimals: from.decimals, min: pair?.minAmount, max: pair?.maxAmount, available } : null;
  const check = rules ? checkAmountInput(amount, rules) : null;
  const localError = check && !check.ok && rules && from ? amountErrorText(t, check.error, rules, from) : null;
  // The server's own pricing at the pair's current rate, at each currency's display precision
  // (docs/decisions/053-one-amount-one-reference.md): the quote and the record will say the same.
  const estimate = check?.ok && pair && from && to ? swapEstimate(check.value, pair, displayDecimals(from), displayDecimals(to)) : null;

  const setAmount = (value: string) => {
    setAmountState(value);
    setServerAmountError(null);
    onEdited();
  };
  const pickFrom = (currency: Currency) => {
    const targets = toOptionsFor(currency.id);
    setPickedFrom(currency.id);
    setPickedTo(targets.some((c) => c.id === toId) ? toId : targets[0]?.id);
    setAmount('');
  };
  const pickTo = (currency: Currency) => {
    setPickedFrom(fromId);
    setPickedTo(currency.id);
    onEdited();
  };
  const flip = () => {
    if (!findPair(pairs, toId, fromId)) return;
    setPickedFrom(toId);
    setPickedTo(fromId);
    setAmount('');
  };

  return {
    signedIn,
    loading: rates.isPending || currencies.isPending,
    byId,
    currencyOf: (code: string) => currencies.data?.find((c) => c.code === code),
    fromOptions,
    toOptions: toOptionsFor(fromId),
    fromId,
    toId,
    from,
    to,
    pair,
    available,
    availableById: new Map(balances.data?.map((b) => [b.currencyId, b.available]) ?? []),
    amount,
    setAmount,
    checkedAmount: check?.ok ? check.value : null,
    amountError: serverAmountError ?? (showErrors ? localError : null),
    refuseAmount: setServerAmountError,
    estimate,
    showErrors: () => setShowErrors(true),
    errorsShown: showErrors,
    pickFrom,
    pickTo,
    flip,
    reset: () => {
      setAmountState('');
      setShowErrors(false);
    },
  };
}

export type SwapForm = ReturnType<typeof useSwapForm>;
