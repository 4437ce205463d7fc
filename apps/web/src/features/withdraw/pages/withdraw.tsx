import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../../../components/wallet/chain.css';
import '../withdraw.css';
import { type Network, type WithdrawRecord, withdrawApplyBody } from '@coffer/contract/chain';
import { ErrorCode } from '@coffer/contract/errors';
import { secondFactorCode } from '@coffer/contract/two-factor';
import { Button, Input, type InputRef, Skeleton } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SendCodeButton } from '../../../components/send-code-button';
import { AmountField, KeyboardSpacer } from '../../../components/wallet/amount-field';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { PasteIcon } from '../../../components/wallet/chain-icons';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { NetworkSelector } from '../../../components/wallet/network-selector';
import { isApiError } from '../../../lib/api-error';
import { readClipboardText } from '../../../lib/clipboard';
import { useCurrentUser } from '../../../lib/current-user';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { formatMoney } from '../../../lib/amount-format';
import { formatAmount, isZeroAmount } from '../../../lib/money';
import { toastDanger } from '../../../lib/notify';
import { useInputAria } from '../../../lib/use-input-aria';
import { checkAddress } from '../../../lib/wallet/address';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { currenciesWithNetworks, networksFor, useNetworks } from '../../../lib/wallet/networks';
import { useApplyWithdraw } from '../api/apply-withdraw';
import { useWithdrawLimits } from '../api/get-limits';
import { WithdrawConfirm, type WithdrawSummary } from '../components/withdraw-confirm';
import { WithdrawResult } from '../components/withdraw-result';
import { allAmount, checkWithdrawAmount } from '../utils/withdraw-amount';

/** Messages the server gave for one field (shown under it; the toast has shown them too). */
interface ServerErrors {
  address?: string;
  amount?: string;
  code?: string;
  totp?: string;
}

const AMOUNT_CODES: readonly number[] = [
  ErrorCode.INSUFFICIENT_BALANCE,
  ErrorCode.AMOUNT_OUT_OF_RANGE,
  ErrorCode.LIMIT_EXCEEDED,
];

/** /withdraw: send funds to an external address on a network, confirmed with an e-mail code. */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const currencies = useCurrencies();
  const networks = useNetworks();
  const user = useCurrentUser();
  const apply = useApplyWithdraw();
  const options = currenciesWithNetworks(enabledCurrencies(currencies.data), networks.data, 'withdraw');

  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [networkId, setNetworkId] = useState<number | undefined>();
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [code, setCode] = useState('');
  /** The authenticator code, asked only when the user has two-factor on. */
  const [totp, setTotp] = useState('');
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<ServerErrors>({});
  const [summary, setSummary] = useState<WithdrawSummary | null>(null);
  const [result, setResult] = useState<WithdrawRecord | null>(null);
  // One key per submit; kept across a retry after a transport failure (the first attempt
  // may have gone through), renewed after a refusal, a success or any change to the form.
  const idempotencyKey = useRef<string | null>(null);
  const addressRef = useRef<InputRef>(null);
  const codeRef = useRef<InputRef>(null);

  const currency = options.find((c) => c.id === currencyId) ?? options[0];
  const currencyNetworks = networksFor(networks.data, currency?.id, 'withdraw');
  const network: Network | undefined = currencyNetworks.find((n) => n.id === networkId) ?? currencyNetworks[0];
  const limits = useWithdrawLimits(network?.id);
  const limitsData = limits.data?.networkId === network?.id ? limits.data : undefined;

  useEffect(() => {
    if (currencyId === undefined && options[0]) setCurrencyId(options[0].id);
  }, [currencyId, options]);

  const decimals = currency && network ? Math.min(currency.decimals, network.tokenDecimals) : 0;
  const frozen = Boolean(network?.payoutsFrozen || limitsData?.payoutsFrozen);
  const addressCheck = network ? checkAddress(address, network.family) : null;
  const amountCheck = checkWithdrawAmount(amount, decimals, limitsData);
  const codeValid = withdrawApplyBody.shape.code.safeParse(code).success;

  const addressError =
    serverErrors.address ??
    (addressCheck && !addressCheck.ok ? t(addressCheck.error === 'required' ? 'withdraw.errors.addressRequired' : 'withdraw.errors.addressShape') : null);
  const amountError =
    serverErrors.amount ??
    (amountCheck.ok || !currency
      ? null
      : amountCheck.error === 'dailyLimit'
        ? t('withdraw.errors.dailyLimit', { amount: formatAmount(limitsData?.dailyRemaining), code: currency.code })
        : amountCheck.error === 'balance'
          ? t('withdraw.errors.balance', {
              available: formatAmount(limitsData?.available),
              fee: formatAmount(limitsData?.fee),
              code: currency.code,
            })
          : amountErrorText(t, amountCheck.error, { decimals, min: limitsData?.min, max: limitsData?.max }, currency.code));
  const codeError = serverErrors.code ?? (codeValid ? null : t('validation.code'));
  const needsTotp = Boolean(user.data?.twoFactor);
  const totpError = needsTotp ? (serverErrors.totp ?? (secondFactorCode.safeParse(totp).success ? null : t('twoFactor.codeRequired'))) : null;

  const addressInvalid = showErrors && !!addressError;
  const codeInvalid = showErrors && !!codeError;
  useInputAria(addressRef, addressInvalid, addressInvalid ? 'withdraw-address-error' : undefined);
  useInputAria(codeRef, codeInvalid, codeInvalid ? 'withdraw-code-error withdraw-code-hint' : 'withdraw-code-hint');

  const available = limitsData?.available ?? null;
  const allValue = limitsData ? allAmount(limitsData.available, limitsData.fee, decimals) : null;

  /** Any change to what would be sent makes a new request: a new key, fresh checks. */
  const edited = (field?: keyof ServerErrors) => {
    idempotencyKey.current = null;
    if (field) setServerErrors((errors) => ({ ...errors, [field]: undefined }));
  };

  const changeAddress = (value: string) => {
    setAddress(value);
    edited('address');
  };
  const changeAmount = (value: string) => {
    setAmount(value);
    edited('amount');
  };
  const changeCode = (value: string) => {
    setCode(value.replace(/\D/g, '').slice(0, 6));
    edited('code');
  };

  const paste = async () => {
    const text = await readClipboardText();
    if (text?.trim()) changeAddress(text.trim());
    else toastDanger(t('withdraw.pasteFailed'));
  };

  const openConfirm = () => {
    setShowErrors(true);
    setKeyboardOpen(false);
    if (!currency || !network || frozen || !limitsData) return;
    if (!addressCheck?.ok || !amountCheck.ok || addressError || amountError || codeError || totpError) return;
    // The contract's schema has the last word on the body's shape.
    const body = withdrawApplyBody.safeParse({
      currencyId: currency.id,
      networkId: network.id,
      address: addressCheck.value,
      amount: amountCheck.value,
      code,
      ...(needsTotp && { totp }),
    });
    if (!body.success) return;
    idempotencyKey.current ??= newIdempotencyKey();
    setSummary({
      network,
      address: body.data.address,
      amount: body.data.amount,
      fee: limitsData.fee,
      total: amountCheck.total,
    });
  };

  const submit = async () => {
    if (!summary || !currency || !idempotencyKey.current) return;
    try {
      const record = await apply.mutateAsync({
        body: {
          currencyId: currency.id,
          networkId: summary.network.id,
          address: summary.address,
          amount: summary.amount,
          code,
          ...(needsTotp && { totp }),
        },
        idempotencyKey: idempotencyKey.current,
      });
      idempotencyKey.current = null;
      setSummary(null);
      setResult(record);
    } catch (error) {
      // A transport failure keeps the sheet and the key: trying again cannot withdraw twice.
      if (!isApiError(error)) return;
      idempotencyKey.current = null;
      setSummary(null);
      if (error.code === ErrorCode.INVALID_ADDRESS) setServerErrors({ address: error.message });
      else if (error.code === ErrorCode.WRONG_EMAIL_CODE) setServerErrors({ code: error.message });
      else if (error.code === ErrorCode.SECOND_FACTOR_REQUIRED || error.code === ErrorCode.WRONG_SECOND_FACTOR)
        setServerErrors({ totp: error.message });
      else if (AMOUNT_CODES.includes(error.code)) setServerErrors({ amount: error.message });
      if (error.code === ErrorCode.CURRENCY_UNAVAILABLE || error.code === ErrorCode.PAYOUTS_FROZEN) void networks.refetch();
      void limits.refetch();
    }
  };

  const again = () => {
    setResult(null);
    setAmount('');
    setCode('');
    setTotp('');
    setShowErrors(false);
    setServerErrors({});
  };

  if (result) return <WithdrawResult record={result} onAgain={again} />;

  if (currencies.isPending || networks.isPending) {
    return (
      <div className="wallet-page" data-testid="withdraw-page">
        <div className="wallet-card">
          <Skeleton.Title animated />
          <Skeleton.Paragraph animated lineCount={6} />
        </div>
      </div>
    );
  }
  if (currencies.isError || networks.isError) {
    return (
      <LoadFailed
        testId="withdraw-load-failed"
        onRetry={() => {
          void currencies.refetch();
          void networks.refetch();
        }}
      />
    );
  }
  if (!currency || !network) {
    return <EmptyState title={t('withdraw.noNetworks')} description={t('withdraw.noNetworksHint')} testId="withdraw-no-networks" />;
  }

  return (
    <div className="wallet-page" data-testid="withdraw-page">
      <section className="wallet-card">
        <div className="mb-3 flex items-center justify-between">
          <span className="wallet-card-title m-0">{t('chain.currency')}</span>
          <CurrencyButton
            code={currency.code}
            icon={currency.icon}
            placeholder={t('wallet.chooseCurrency')}
            onClick={() => setPickerOpen(true)}
            testId="withdraw-currency"
          />
        </div>
        <NetworkSelector
          networks={currencyNetworks}
          selectedId={network.id}
          onSelect={(picked) => {
            setNetworkId(picked.id);
            edited();
            setServerErrors({});
          }}
          testId="withdraw-network"
        />
        {frozen ? (
          <div className="chain-warning mt-3" role="alert" data-testid="withdraw-frozen">
            {t('withdraw.frozen')}
          </div>
        ) : null}
        {limits.isError && !limitsData ? (
          <div className="chain-warning mt-3 flex items-center justify-between gap-2" role="alert" data-testid="withdraw-limits-failed">
            <span>{t('withdraw.limitsFailed')}</span>
            <Button size="small" color="primary" fill="outline" className="chain-action" onClick={() => void limits.refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : null}
      </section>

      <section className="wallet-card">
        <label htmlFor="withdraw-address" className="wallet-card-title block">
          {t('withdraw.address')}
        </label>
        <div className={`withdraw-input${addressInvalid ? ' withdraw-input--invalid' : ''}`}>
          <Input
            id="withdraw-address"
            name="withdraw-address"
            value={address}
            onChange={changeAddress}
            onFocus={() => setKeyboardOpen(false)}
            placeholder={t('withdraw.addressPlaceholder', { network: network.name })}
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            clearable
            ref={addressRef}
            data-testid="withdraw-address"
          />
          <button
            type="button"
            className="wallet-icon-button"
            aria-label={t('withdraw.paste')}
            onClick={() => void paste()}
            data-testid="withdraw-paste"
          >
            <PasteIcon />
          </button>
        </div>
        {showErrors && addressError ? (
          <div id="withdraw-address-error" className="wallet-error" data-testid="address-error">
            {addressError}
          </div>
        ) : null}
      </section>

      <section className="wallet-card">
        <div className="mb-3 flex items-center justify-between">
          <span id="withdraw-amount-label" className="wallet-card-title m-0">
            {t('withdraw.amount')}
          </span>
          <button
            type="button"
            className="wallet-link withdraw-all"
            disabled={!allValue || isZeroAmount(allValue)}
            onClick={() => allValue && changeAmount(isZeroAmount(allValue) ? '' : allValue)}
            data-testid="withdraw-all"
          >
            {t('wallet.all')}
          </button>
        </div>
        <AmountField
          value={amount}
          onChange={changeAmount}
          decimals={decimals}
          open={keyboardOpen}
          onOpenChange={setKeyboardOpen}
          label={t('withdraw.amount')}
          placeholder={t('withdraw.amountPlaceholder')}
          suffix={currency.code}
          invalid={showErrors && !!amountError}
          testId="withdraw-amount"
        />
        {showErrors && amountError ? (
          <div className="wallet-error" data-testid="amount-error">
            {amountError}
          </div>
        ) : null}
        <div className="mt-2">
          <div className="wallet-row">
            <span>{t('withdraw.available')}</span>
            <span data-testid="withdraw-available">
              {formatMoney(available, currency)} {currency.code}
            </span>
          </div>
          <div className="wallet-row">
            <span>{t('bill.fields.fee')}</span>
            <span data-testid="withdraw-fee">
              {formatAmount(limitsData?.fee ?? network.withdrawFee)} {currency.code}
            </span>
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.receive')}</span>
            <span className="font-semibold" data-testid="withdraw-receive">
              {amountCheck.ok ? formatAmount(amountCheck.value) : '--'} {currency.code}
            </span>
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.total')}</span>
            <span data-testid="withdraw-total">
              {amountCheck.ok && limitsData ? formatAmount(amountCheck.total) : '--'} {currency.code}
            </span>
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.dailyRemaining')}</span>
            <span data-testid="withdraw-daily-remaining">
              {t('withdraw.dailyRemainingValue', {
                remaining: formatAmount(limitsData?.dailyRemaining),
                limit: formatAmount(limitsData?.dailyLimit ?? network.dailyWithdrawLimit),
                code: currency.code,
              })}
            </span>
          </div>
          <div className="wallet-muted mt-1" data-testid="withdraw-range">
            {t('withdraw.range', {
              min: formatAmount(limitsData?.min ?? network.minWithdraw),
              max: formatAmount(limitsData?.max ?? network.maxWithdraw),
              code: currency.code,
            })}
          </div>
        </div>
      </section>

      <section className="wallet-card">
        <label htmlFor="withdraw-code" className="wallet-card-title block">
          {t('withdraw.code')}
        </label>
        <div className={`withdraw-input withdraw-code${codeInvalid ? ' withdraw-input--invalid' : ''}`}>
          <Input
            id="withdraw-code"
            name="withdraw-code"
            value={code}
            onChange={changeCode}
            onFocus={() => setKeyboardOpen(false)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t('auth.codePlaceholder')}
            ref={codeRef}
            data-testid="withdraw-code"
          />
          <SendCodeButton
            type="withdraw"
            getEmail={async () => user.data?.email ?? null}
            testId="withdraw-send-code"
          />
        </div>
        {showErrors && codeError ? (
          <div id="withdraw-code-error" className="wallet-error" data-testid="code-error">
            {codeError}
          </div>
        ) : null}
        <div id="withdraw-code-hint" className="wallet-muted mt-2">
          {user.data?.email ? t('withdraw.codeHint', { email: user.data.email }) : null}
        </div>
      </section>

      {needsTotp ? (
        <section className="wallet-card">
          <label htmlFor="withdraw-totp" className="wallet-card-title block">
            {t('twoFactor.withdrawCode')}
          </label>
          <div className={`withdraw-input${showErrors && totpError ? ' withdraw-input--invalid' : ''}`}>
            <Input
              id="withdraw-totp"
              name="withdraw-totp"
              value={totp}
              onChange={(value) => {
                setTotp(value.trim().slice(0, 11));
                edited('totp');
              }}
              onFocus={() => setKeyboardOpen(false)}
              autoComplete="one-time-code"
              maxLength={11}
              placeholder={t('twoFactor.codePlaceholder')}
              data-testid="withdraw-totp"
            />
          </div>
          {showErrors && totpError ? (
            <div className="wallet-error" data-testid="totp-error">
              {totpError}
            </div>
          ) : null}
          <div className="wallet-muted mt-2">{t('twoFactor.withdrawHint')}</div>
        </section>
      ) : null}

      <Button
        block
        color="primary"
        size="large"
        disabled={frozen || !limitsData}
        onClick={openConfirm}
        data-testid="withdraw-next"
      >
        {t('withdraw.next')}
      </Button>

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={pickerOpen}
        onClose={() => setPickerOpen(false)}
        currencies={options}
        selectedId={currency.id}
        onSelect={(picked) => {
          setCurrencyId(picked.id);
          setNetworkId(undefined);
          setAmount('');
          edited();
          setServerErrors({});
        }}
      />

      <WithdrawConfirm
        summary={summary}
        visible={summary !== null}
        pending={apply.isPending}
        onCancel={() => setSummary(null)}
        onConfirm={() => void submit()}
      />
    </div>
  );
}
