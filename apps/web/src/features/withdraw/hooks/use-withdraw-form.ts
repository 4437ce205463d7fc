import { type Network, type WithdrawRecord, withdrawApplyBody } from '@coffer/contract/chain';
import { ErrorCode } from '@coffer/contract/errors';
import type { Currency } from '@coffer/contract/ledger';
import { addressFamily } from '@coffer/contract/rules';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { isApiError } from '@coffer/api-client/api-error';
import { useCurrentUser } from '../../../lib/current-user';
import { fieldErrorOf } from '../../../lib/form-errors';
import { newIdempotencyKey } from '@coffer/api-client/idempotency';
import { useStepUp } from '../../../lib/step-up';
import { formatMoney } from '../../../lib/amount-format';
import { checkAddress } from '../../../lib/wallet/address';
import { useAddressBook, useAddressCheck } from '../../../lib/wallet/address-book';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { currenciesWithNetworks, networksFor, useNetworks } from '../../../lib/wallet/networks';
import { FEE_QUOTE_ERROR_CODES, useApplyWithdraw, WITHDRAW_FIELD_ERRORS } from '../api/apply-withdraw';
import { useWithdrawLimits } from '../api/get-limits';
import { useSecurityHold } from '../api/security-hold';
import type { WithdrawSummary } from '../components/withdraw-confirm';
import { allAmount, checkWithdrawAmount, withdrawTotal } from '../utils/withdraw-amount';
import { useFeeQuote } from './use-fee-quote';

type Field = 'address' | 'amount' | 'code';
/** Messages the server gave for one field, shown under it instead of a pop-up. */
type ServerErrors = Partial<Record<Field, string>>;

/**
 * The withdrawal form: currency, network, address, amount, the e-mail code and (with
 * two-factor on) the authenticator code; their checks, the confirmation and the request.
 * Every message is derived on render from the values and the server's last refusal.
 */
export function useWithdrawForm() {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const networks = useNetworks();
  const user = useCurrentUser();
  const apply = useApplyWithdraw();
  const hold = useSecurityHold();
  const options = currenciesWithNetworks(enabledCurrencies(currencies.data), networks.data, 'withdraw');

  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [networkId, setNetworkId] = useState<number | undefined>();
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [code, setCode] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  const [summary, setSummary] = useState<WithdrawSummary | null>(null);
  const [result, setResult] = useState<WithdrawRecord | null>(null);
  // One key per submit; kept across a retry after a transport failure (the first attempt
  // may have gone through), renewed after a refusal, a success or any change to the form.
  const idempotencyKey = useRef<string | null>(null);

  const currency: Currency | undefined = options.find((c) => c.id === currencyId) ?? options[0];
  const currencyNetworks = networksFor(networks.data, currency?.id, 'withdraw');
  const network: Network | undefined = currencyNetworks.find((n) => n.id === networkId) ?? currencyNetworks[0];
  const limits = useWithdrawLimits(network?.id);
  const limitsData = limits.data?.networkId === network?.id ? limits.data : undefined;

  const decimals = currency && network ? Math.min(currency.decimals, network.tokenDecimals) : 0;
  const frozen = Boolean(network?.payoutsFrozen || limitsData?.payoutsFrozen);
  /** A security hold after a credential change: withdrawals wait (the page says how long). */
  const held = Boolean(hold.data?.hold);
  const addressCheck = network ? checkAddress(address, network.family) : null;
  // The server's verdict while typing: checksum, unspendable, contract, book, lookalike.
  const remote = useAddressCheck(network?.id, addressCheck?.ok ? addressCheck.value : null);
  const book = useAddressBook();
  const bookEntries = (book.data?.list ?? []).filter((e) => e.networkId === network?.id);
  // The fee is quoted from the chain before the code step and renewed before it runs out
  // (docs/decisions/040); the limits' fee is only its floor.
  // The destination joins the quote once the server's address check passed it (a contract may cost more gas).
  const quoteAddress = addressCheck?.ok && remote && !remote.problem ? addressCheck.value : null;
  const feeQuote = useFeeQuote(network?.id, quoteAddress, !frozen && !held);
  const quoted = feeQuote.data?.networkId === network?.id ? feeQuote.data : undefined;
  const priced = limitsData && quoted ? { ...limitsData, fee: quoted.fee } : limitsData;
  const amountCheck = checkWithdrawAmount(amount, decimals, priced);
  // With two-factor on, the code (or a passkey) inline under the form (decision 033).
  const stepUp = useStepUp(user.data?.twoFactor === true);

  const waitLeft = (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return t('addressBook.waitLeft', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
  /** The address check's refusal, shown under the field as soon as the server answered. */
  const remoteProblem =
    remote?.problem && remote.problem !== 'format'
      ? t(`withdraw.check.${remote.problem}`, { left: waitLeft(remote.entry?.secondsLeft ?? 0) })
      : null;
  /** Worth a second look but not refused: the user's own deposit address, a lookalike of a past one. */
  const typedFamily = addressFamily(address);
  const addressNotes = [
    ...(network && typedFamily && typedFamily !== network.family ? [t('withdraw.check.otherFamily', { network: network.name })] : []),
    ...(remote?.entry && !remote.problem ? [t('withdraw.check.inBook', { label: remote.entry.label })] : []),
    ...(remote?.warnings ?? []).map((w) => t(`withdraw.check.${w}`, { address: remote?.resembles ?? '' })),
  ];
  const localAmountError = (): string | null => {
    if (amountCheck.ok || !currency) return null;
    if (amountCheck.error === 'dailyLimit')
      return t('withdraw.errors.dailyLimit', { amount: formatMoney(limitsData?.dailyRemaining, currency), code: currency.code });
    if (amountCheck.error === 'balance')
      return t('withdraw.errors.balance', {
        available: formatMoney(limitsData?.available, currency),
        fee: formatMoney(priced?.fee, currency, 'up'),
        code: currency.code,
      });
    return amountErrorText(t, amountCheck.error, { decimals, min: limitsData?.min, max: limitsData?.max }, currency);
  };
  const errors: Record<Field, string | null> = {
    address:
      serverErrors.address ??
      (addressCheck && !addressCheck.ok
        ? t(addressCheck.error === 'required' ? 'withdraw.errors.addressRequired' : 'withdraw.errors.addressShape')
        : remoteProblem),
    amount: serverErrors.amount ?? localAmountError(),
    code: serverErrors.code ?? (withdrawApplyBody.shape.code.safeParse(code).success ? null : t('validation.code')),
  };
  /** What the page shows under each field: local checks once Next was pressed, the server's at once. */
  const shown = (field: Field) => (showErrors ? errors[field] : field === 'address' ? (serverErrors.address ?? remoteProblem) : null);

  /** Any change to what would be sent makes a new request: a new key, fresh checks. */
  const edited = (field?: Field) => {
    idempotencyKey.current = null;
    if (field) setServerErrors((previous) => ({ ...previous, [field]: undefined }));
    else setServerErrors({});
  };

  const change = {
    address: (value: string) => {
      setAddress(value);
      edited('address');
    },
    amount: (value: string) => {
      setAmount(value);
      edited('amount');
    },
    code: (value: string) => {
      setCode(value.replace(/\D/g, '').slice(0, 6));
      edited('code');
    },
    network: (picked: Network) => {
      setNetworkId(picked.id);
      edited();
    },
    currency: (picked: Currency) => {
      setCurrencyId(picked.id);
      setNetworkId(undefined);
      setAmount('');
      edited();
    },
  };

  const openConfirm = () => {
    setShowErrors(true);
    if (!currency || !network || frozen || held || !limitsData || !quoted) return;
    if (!addressCheck?.ok || !amountCheck.ok || !stepUp.ready || Object.values(errors).some((error) => error !== null)) return;
    // The contract's schema has the last word on the body's shape.
    const body = withdrawApplyBody.safeParse({
      currencyId: currency.id,
      networkId: network.id,
      address: addressCheck.value,
      amount: amountCheck.value,
      code,
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

  const submit = async () => {
    if (!summary || !currency || !idempotencyKey.current || !quoted) return;
    try {
      const proof = await stepUp.proof();
      const record = await apply.mutateAsync({
        body: {
          currencyId: currency.id,
          networkId: summary.network.id,
          address: summary.address,
          amount: summary.amount,
          code,
          quoteId: quoted.quoteId,
          ...proof,
        },
        idempotencyKey: idempotencyKey.current,
      });
      idempotencyKey.current = null;
      setSummary(null);
      setResult(record);
      stepUp.reset();
    } catch (error) {
      // The second factor was missing, wrong or not confirmed: asked again under its field.
      if (stepUp.refuse(error)) {
        idempotencyKey.current = null;
        setSummary(null);
        return;
      }
      // A transport failure keeps the sheet and the key: trying again cannot withdraw twice.
      if (!isApiError(error)) return;
      idempotencyKey.current = null;
      // The quote ran out or was spent: a new one, the sheet stays open and says if the fee moved.
      if (FEE_QUOTE_ERROR_CODES.includes(error.code)) {
        idempotencyKey.current = newIdempotencyKey();
        void feeQuote.quote.refetch();
        return;
      }
      setSummary(null);
      const inline = fieldErrorOf(error, WITHDRAW_FIELD_ERRORS);
      if (inline) setServerErrors({ [inline.field]: inline.message });
      if (error.code === ErrorCode.CURRENCY_UNAVAILABLE || error.code === ErrorCode.PAYOUTS_FROZEN) void networks.refetch();
      if (error.code === ErrorCode.WITHDRAWAL_HOLD) void hold.refetch();
      void limits.refetch();
    }
  };

  const again = () => {
    setResult(null);
    setAmount('');
    setCode('');
    stepUp.reset();
    setShowErrors(false);
    setServerErrors({});
  };

  return {
    currencies,
    networks,
    user: user.data,
    options,
    currency,
    currencyNetworks,
    network,
    limits,
    limitsData,
    decimals,
    frozen,
    hold,
    held,
    values: { address, amount, code },
    addressNotes,
    bookEntries,
    change,
    shown,
    stepUp,
    showErrors,
    amountCheck,
    allValue: priced && quoted ? allAmount(priced.available, priced.fee, decimals) : null,
    feeQuote,
    quoted,
    summary: summaryView,
    closeSummary: () => setSummary(null),
    pending: apply.isPending,
    openConfirm,
    submit,
    result,
    again,
  };
}

export type WithdrawForm = ReturnType<typeof useWithdrawForm>;
