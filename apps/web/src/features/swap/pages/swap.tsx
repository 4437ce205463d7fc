import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../swap.css';
import type { Currency } from '@coffer/contract/ledger';
import type { SwapApplyData, SwapQuoteData } from '@coffer/contract/swap';
import { ErrorCode } from '@coffer/contract/errors';
import { Button, Popup, Result, Skeleton } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { AmountField, KeyboardSpacer } from '../../../components/wallet/amount-field';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { SwapIcon } from '../../../components/icons';
import { type AmountRules, checkAmountInput } from '../../../lib/amount-input';
import { isApiError } from '../../../lib/api-error';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { formatMoney, formatNaturalRate } from '../../../lib/amount-format';
import { isSignedIn } from '../../../lib/session';
import { useBalances } from '../../../lib/wallet/balances';
import { useCurrencies } from '../../../lib/wallet/currencies';
import { findPair, useSwapRates } from '../../../lib/wallet/swap-rates';
import { useApplySwap } from '../api/apply-swap';
import { useQuote } from '../api/get-quote';
import { QUOTE_TTL_SECONDS, quoteDeadline, useSecondsLeft } from '../hooks/use-deadline';
import { swapEstimate } from '../utils/estimate';
import { readSwapDraft, swapLoginPath } from '../utils/sign-in-draft';

/** "0.3%" from basis points, on the digits (no float, no Math). */
function percentFromBps(bps: number): string {
  const digits = String(bps).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(-2).replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''}%`;
}

export default function SwapPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = isSignedIn();
  const currencies = useCurrencies();
  const rates = useSwapRates();
  const balances = useBalances(signedIn);
  const quote = useQuote();
  const apply = useApplySwap();

  // Back from sign-in: the form as it was typed (issue 9 item 3).
  const { search } = useLocation();
  const [draft] = useState(() => readSwapDraft(search));
  const [fromId, setFromId] = useState<number | undefined>(draft.fromId);
  const [toId, setToId] = useState<number | undefined>(draft.toId);
  const [amount, setAmount] = useState(draft.amount);
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [picking, setPicking] = useState<'from' | 'to' | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [current, setCurrent] = useState<{ data: SwapQuoteData; deadline: number } | null>(null);
  const [quoteOpen, setQuoteOpen] = useState(false);
  const [result, setResult] = useState<SwapApplyData | null>(null);
  const idempotencyKey = useRef<string | null>(null);

  const pairs = rates.data?.list ?? [];
  const byId = new Map<number, Currency>(currencies.data?.map((c) => [c.id, c]) ?? []);
  const currencyOf = (code: string) => currencies.data?.find((c) => c.code === code);
  const fromOptions = [...new Set(pairs.map((p) => p.fromCurrencyId))]
    .map((id) => byId.get(id))
    .filter((c): c is Currency => c !== undefined)
    .sort((a, b) => a.sort - b.sort);
  const toOptionsFor = (id: number | undefined) =>
    pairs
      .filter((p) => p.fromCurrencyId === id)
      .map((p) => byId.get(p.toCurrencyId))
      .filter((c): c is Currency => c !== undefined)
      .sort((a, b) => a.sort - b.sort);

  // First load: the first currency that can be sold, and the first it can be swapped to.
  useEffect(() => {
    if (fromId !== undefined || !fromOptions[0]) return;
    const first = fromOptions[0];
    setFromId(first.id);
    setToId(toOptionsFor(first.id)[0]?.id);
  });

  const from = fromId === undefined ? undefined : byId.get(fromId);
  const to = toId === undefined ? undefined : byId.get(toId);
  const pair = findPair(pairs, fromId, toId);
  const available = signedIn ? (balances.data?.find((b) => b.currencyId === fromId)?.available ?? null) : null;

  const rules: AmountRules | null = from
    ? { decimals: from.decimals, min: pair?.minAmount, max: pair?.maxAmount, available }
    : null;
  const check = rules ? checkAmountInput(amount, rules) : null;
  const amountError = check && !check.ok && rules && from ? amountErrorText(t, check.error, rules, from.code) : null;
  // The server's own pricing at the pair's current rate: the quote will say the same.
  const estimate = check?.ok && pair && from && to ? swapEstimate(check.value, pair, from.decimals, to.decimals) : null;

  const secondsLeft = useSecondsLeft(current?.deadline ?? null);
  const expired = current !== null && secondsLeft === 0;

  const resetQuote = () => {
    setCurrent(null);
    idempotencyKey.current = null;
  };

  const pickFrom = (currency: Currency) => {
    setFromId(currency.id);
    const targets = toOptionsFor(currency.id);
    if (!targets.some((c) => c.id === toId)) setToId(targets[0]?.id);
    setAmount('');
    resetQuote();
  };

  const flip = () => {
    if (!findPair(pairs, toId, fromId)) return;
    setFromId(toId);
    setToId(fromId);
    setAmount('');
    resetQuote();
  };

  const requestQuote = async () => {
    setShowErrors(true);
    setKeyboardOpen(false);
    if (!signedIn) {
      navigate(swapLoginPath({ fromId, toId, amount }));
      return;
    }
    if (!check?.ok || fromId === undefined || toId === undefined) return;
    try {
      const data = await quote.mutateAsync({ fromCurrencyId: fromId, toCurrencyId: toId, amount: check.value });
      setCurrent({ data, deadline: quoteDeadline(data.expiresAt, QUOTE_TTL_SECONDS) });
      idempotencyKey.current = newIdempotencyKey();
      setQuoteOpen(true);
    } catch {
      // The server's message was shown by the HTTP layer.
    }
  };

  const confirm = async () => {
    if (!current || expired || !idempotencyKey.current) return;
    const { data } = current;
    try {
      const done = await apply.mutateAsync({
        body: {
          fromCurrencyId: data.fromCurrencyId,
          toCurrencyId: data.toCurrencyId,
          amount: data.fromAmount,
          quoteId: data.quoteId,
        },
        idempotencyKey: idempotencyKey.current,
      });
      setQuoteOpen(false);
      resetQuote();
      setResult(done);
    } catch (error) {
      if (isApiError(error, ErrorCode.QUOTE_EXPIRED)) {
        // The price is gone: show the quote as expired so a new one can be asked for.
        setCurrent((prev) => (prev ? { ...prev, deadline: Date.now() } : prev));
        idempotencyKey.current = null;
      } else if (isApiError(error)) {
        setQuoteOpen(false);
        resetQuote();
      }
    }
  };

  if (result) {
    return (
      <div className="wallet-page" data-testid="swap-success">
        <Result
          status="success"
          title={t('swap.done')}
          description={t('swap.doneDetail', {
            from: `${formatMoney(result.fromAmount, currencyOf(result.fromCurrency))} ${result.fromCurrency}`,
            to: `${formatMoney(result.toAmount, currencyOf(result.toCurrency))} ${result.toCurrency}`,
          })}
        />
        <Button
          block
          color="primary"
          size="large"
          onClick={() => navigate(`/bill/detail?type=swap&id=${result.id}`)}
          data-testid="swap-view-bill"
        >
          {t('swap.viewBill')}
        </Button>
        <Button
          block
          size="large"
          onClick={() => {
            setResult(null);
            setAmount('');
            setShowErrors(false);
          }}
        >
          {t('swap.again')}
        </Button>
      </div>
    );
  }

  const feeCurrency = current ? byId.get(current.data.feeCurrencyId) : undefined;

  return (
    <div className="wallet-page swap-page" data-testid="swap-page">
      <h1 className="swap-heading">{t('routes.swap')}</h1>
      {rates.isPending || currencies.isPending ? (
        <div className="wallet-card">
          <Skeleton.Paragraph animated lineCount={5} />
        </div>
      ) : (
        <>
          <div className="wallet-card">
            <div className="mb-2 flex items-center justify-between">
              <span className="wallet-muted">{t('swap.pay')}</span>
              <CurrencyButton
                code={from?.code}
                icon={from?.icon}
                placeholder={t('wallet.chooseCurrency')}
                onClick={() => setPicking('from')}
                testId="swap-from"
              />
            </div>
            <AmountField
              value={amount}
              onChange={(value) => {
                setAmount(value);
                resetQuote();
              }}
              decimals={from?.decimals ?? 0}
              open={keyboardOpen}
              onOpenChange={setKeyboardOpen}
              label={t('swap.pay')}
              placeholder={t('swap.amountPlaceholder')}
              suffix={from?.code}
              invalid={showErrors && !!amountError}
            />
            {showErrors && amountError ? (
              <div className="wallet-error" data-testid="amount-error">
                {amountError}
              </div>
            ) : null}
            {signedIn ? (
              <div className="mt-2 flex items-center justify-between">
                <span className="wallet-muted" data-testid="swap-available">
                  {t('wallet.available', { amount: formatMoney(available, from), code: from?.code ?? '' })}
                </span>
                <button
                  type="button"
                  className="wallet-link"
                  disabled={!available || available === '0'}
                  onClick={() => available && setAmount(available)}
                >
                  {t('wallet.all')}
                </button>
              </div>
            ) : null}
          </div>

          <div className="swap-flip-row">
            <button
              type="button"
              className="swap-flip"
              onClick={flip}
              aria-label={t('swap.flip')}
              data-testid="swap-flip"
            >
              <SwapIcon />
            </button>
          </div>

          <div className="wallet-card">
            <div className="mb-2 flex items-center justify-between">
              <span className="wallet-muted">{t('swap.receive')}</span>
              <CurrencyButton
                code={to?.code}
                icon={to?.icon}
                placeholder={t('wallet.chooseCurrency')}
                onClick={() => setPicking('to')}
                testId="swap-to"
              />
            </div>
            <div className="swap-estimate" data-testid="swap-estimate">
              {estimate && to ? `≈ ${formatMoney(estimate.receive, to)} ${to.code}` : '--'}
            </div>
          </div>

          <div className="wallet-card" data-testid="swap-pair-info">
            {pair && from && to ? (
              <>
                <div className="wallet-row">
                  <span>{t('swap.rate')}</span>
                  <span data-testid="swap-rate">{formatNaturalRate(pair.rate, from, to)}</span>
                </div>
                <div className="wallet-row">
                  <span>{t('swap.fee')}</span>
                  <span>{percentFromBps(pair.feeBps)}</span>
                </div>
                <div className="wallet-row">
                  <span>{t('swap.limits')}</span>
                  <span>
                    {formatMoney(pair.minAmount, from, 'up')} – {formatMoney(pair.maxAmount, from)} {from.code}
                  </span>
                </div>
              </>
            ) : (
              <div className="wallet-muted">{t('swap.noPair')}</div>
            )}
          </div>

          <Button
            block
            color="primary"
            size="large"
            loading={quote.isPending}
            disabled={!pair}
            onClick={() => void requestQuote()}
            data-testid="swap-quote"
          >
            {signedIn ? t('swap.getQuote') : t('swap.signInToSwap')}
          </Button>
        </>
      )}

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={picking !== null}
        onClose={() => setPicking(null)}
        currencies={picking === 'to' ? toOptionsFor(fromId) : fromOptions}
        selectedId={picking === 'to' ? toId : fromId}
        available={new Map(balances.data?.map((b) => [b.currencyId, b.available]) ?? [])}
        onSelect={(currency) => {
          if (picking === 'from') pickFrom(currency);
          else {
            setToId(currency.id);
            resetQuote();
          }
        }}
      />

      <Popup
        visible={quoteOpen && current !== null}
        onMaskClick={() => !apply.isPending && setQuoteOpen(false)}
        bodyClassName="wallet-popup"
        destroyOnClose
      >
        {current ? (
          <div data-testid="swap-quote-panel">
            <h3 className="wallet-popup-title">{t('swap.quoteTitle')}</h3>
            <div className="wallet-big-amount" data-testid="quote-receive">
              {formatMoney(current.data.toAmount, to)} {to?.code}
            </div>
            <div className="wallet-row">
              <span>{t('swap.pay')}</span>
              <span>
                {formatMoney(current.data.fromAmount, from, 'up')} {from?.code}
              </span>
            </div>
            <div className="wallet-row">
              <span>{t('swap.rate')}</span>
              <span data-testid="quote-rate">{from && to ? formatNaturalRate(current.data.rate, from, to) : '--'}</span>
            </div>
            <div className="wallet-row">
              <span>{t('swap.fee')}</span>
              <span data-testid="quote-fee">
                {formatMoney(current.data.fee, feeCurrency, 'up')} {feeCurrency?.code ?? ''}
              </span>
            </div>
            <div className={`swap-countdown${expired ? ' swap-countdown--expired' : ''}`} data-testid="quote-countdown">
              {expired ? t('swap.quoteExpired') : t('swap.quoteValid', { seconds: secondsLeft })}
            </div>
            <div className="mt-4 flex gap-3">
              <Button block size="large" disabled={apply.isPending} onClick={() => setQuoteOpen(false)}>
                {t('common.cancel')}
              </Button>
              {expired ? (
                <Button
                  block
                  color="primary"
                  size="large"
                  loading={quote.isPending}
                  onClick={() => void requestQuote()}
                  data-testid="swap-requote"
                >
                  {t('swap.requote')}
                </Button>
              ) : (
                <Button
                  block
                  color="primary"
                  size="large"
                  loading={apply.isPending}
                  onClick={() => void confirm()}
                  data-testid="swap-confirm"
                >
                  {t('swap.confirm')}
                </Button>
              )}
            </div>
          </div>
        ) : null}
      </Popup>
    </div>
  );
}
