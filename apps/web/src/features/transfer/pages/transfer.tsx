import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import { email as emailSchema } from '@coffer/contract/auth';
import { type Currency, MEMO_MAX, type Recipient, type TransferResult } from '@coffer/contract/ledger';
import { Button, Input, Popup, Result, Tabs, TextArea } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AmountField, KeyboardSpacer } from '../../../components/wallet/amount-field';
import { amountErrorText } from '../../../components/wallet/amount-error';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { type AmountRules, checkAmountInput } from '../../../lib/amount-input';
import { isApiError } from '../../../lib/api-error';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { formatMoney } from '../../../lib/amount-format';
import { formatAmount } from '../../../lib/money';
import { useBalance, useBalances } from '../../../lib/wallet/balances';
import { enabledCurrencies, useCurrencies } from '../../../lib/wallet/currencies';
import { getRecipient } from '../api/get-recipient';
import { type TransferTarget, useSendTransfer } from '../api/send-transfer';
import { RecipientCard } from '../components/recipient-card';

type Mode = 'email' | 'uid';

const UID_RE = /^[1-9]\d{0,14}$/;

/**
 * Quiet time after the last key before the recipient is looked up by itself: one
 * request per pause, not per key (the server allows 60 lookups a minute per user).
 */
const LOOKUP_DEBOUNCE_MS = 400;

/** The request target for the typed recipient, or null while it is malformed. */
function targetOf(mode: Mode, raw: string): TransferTarget | null {
  const text = raw.trim();
  if (mode === 'uid') return UID_RE.test(text) ? { uid: Number(text) } : null;
  const parsed = emailSchema.safeParse(text);
  return parsed.success ? { email: parsed.data } : null;
}

export default function TransferPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currencies = useCurrencies();
  const options = enabledCurrencies(currencies.data);
  const balances = useBalances();
  const send = useSendTransfer();

  const [mode, setMode] = useState<Mode>('email');
  const [recipientText, setRecipientText] = useState('');
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [recipientError, setRecipientError] = useState<string | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  // The lookup in flight: aborted when the text changes or another lookup starts.
  const lookup = useRef<AbortController | null>(null);
  const lookupTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [currencyId, setCurrencyId] = useState<number | undefined>();
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [showErrors, setShowErrors] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<TransferResult | null>(null);
  // One key per submit; kept across a retry after a transport failure (the first attempt
  // may have gone through), renewed after a refusal or a success.
  const idempotencyKey = useRef<string | null>(null);

  const currency: Currency | undefined = options.find((c) => c.id === currencyId) ?? options[0];
  const balance = useBalance(currency?.id);
  const available = balance.data?.available ?? null;

  useEffect(() => {
    if (currencyId === undefined && options[0]) setCurrencyId(options[0].id);
  }, [currencyId, options]);

  const rules: AmountRules | null = currency
    ? { decimals: currency.decimals, min: currency.transferMin, max: currency.transferMax, available }
    : null;
  const check = rules ? checkAmountInput(amount, rules) : null;
  const amountError = check && !check.ok && rules && currency ? amountErrorText(t, check.error, rules, currency.code) : null;

  const availableById = new Map(balances.data?.map((b) => [b.currencyId, b.available]) ?? []);

  const changeRecipient = (value: string) => {
    lookup.current?.abort();
    setRecipientText(value);
    setRecipient(null);
    setRecipientError(null);
    idempotencyKey.current = null;
  };

  const lookUp = async (target: TransferTarget) => {
    lookup.current?.abort();
    const controller = new AbortController();
    lookup.current = controller;
    setRecipientError(null);
    setLookingUp(true);
    try {
      const found = await getRecipient(target, controller.signal);
      if (!controller.signal.aborted) setRecipient(found);
    } catch (error) {
      // 3004 / 3005 were shown as a toast; keep the reason under the field too.
      if (controller.signal.aborted) return;
      setRecipient(null);
      if (isApiError(error)) setRecipientError(error.message);
    } finally {
      if (lookup.current === controller) setLookingUp(false);
    }
  };

  /** The check button and Enter: look up now, or say why the text is not a recipient. */
  const lookUpNow = () => {
    clearTimeout(lookupTimer.current);
    const target = targetOf(mode, recipientText);
    if (target) void lookUp(target);
    else setRecipientError(t(mode === 'email' ? 'validation.email' : 'transfer.uidInvalid'));
  };

  // Typing a well-formed e-mail or UID looks it up by itself after a pause; malformed text
  // sends nothing (the button or Next says what is wrong).
  // biome-ignore lint/correctness/useExhaustiveDependencies: lookUp reads only refs and setters
  useEffect(() => {
    const target = targetOf(mode, recipientText);
    if (!target) return;
    lookupTimer.current = setTimeout(() => void lookUp(target), LOOKUP_DEBOUNCE_MS);
    return () => clearTimeout(lookupTimer.current);
  }, [mode, recipientText]);

  useEffect(() => () => lookup.current?.abort(), []);

  const openConfirm = () => {
    setShowErrors(true);
    setKeyboardOpen(false);
    if (!recipient || !check?.ok || !currency) return;
    idempotencyKey.current ??= newIdempotencyKey();
    setConfirming(true);
  };

  const submit = async () => {
    const target = targetOf(mode, recipientText);
    if (!target || !check?.ok || !currency || !idempotencyKey.current) return;
    const trimmedMemo = memo.trim();
    try {
      const sent = await send.mutateAsync({
        to: target,
        currencyId: currency.id,
        amount: check.value,
        ...(trimmedMemo ? { memo: trimmedMemo } : {}),
        idempotencyKey: idempotencyKey.current,
      });
      idempotencyKey.current = null;
      setConfirming(false);
      setResult(sent);
      void balance.refetch();
    } catch (error) {
      if (isApiError(error)) {
        idempotencyKey.current = null;
        setConfirming(false);
      }
    }
  };

  const reset = () => {
    setResult(null);
    setAmount('');
    setMemo('');
    setShowErrors(false);
  };

  if (result) {
    return (
      <div className="wallet-page" data-testid="transfer-success">
        <Result
          status="success"
          title={t('transfer.sent')}
          description={t('transfer.sentTo', {
            amount: formatAmount(result.amount),
            code: result.code,
            name: result.counterparty.nickname || result.counterparty.maskedEmail,
          })}
        />
        <div className="wallet-card">
          <div className="wallet-row">
            <span>{t('bill.fields.id')}</span>
            <span data-testid="transfer-result-id">{result.id}</span>
          </div>
          <div className="wallet-row">
            <span>{t('bill.fields.counterparty')}</span>
            <span>{result.counterparty.maskedEmail}</span>
          </div>
          {result.memo ? (
            <div className="wallet-row">
              <span>{t('bill.fields.memo')}</span>
              <span>{result.memo}</span>
            </div>
          ) : null}
        </div>
        <Button
          block
          color="primary"
          size="large"
          onClick={() => navigate(`/bill/detail?type=transfer&id=${result.id}`)}
          data-testid="transfer-view-bill"
        >
          {t('transfer.viewBill')}
        </Button>
        <Button block size="large" onClick={reset} data-testid="transfer-again">
          {t('transfer.again')}
        </Button>
      </div>
    );
  }

  return (
    <div className="wallet-page" data-testid="transfer-page">
      <div className="wallet-card">
        <Tabs
          activeKey={mode}
          onChange={(key) => {
            setMode(key as Mode);
            changeRecipient('');
          }}
          style={{ '--title-font-size': '15px' }}
        >
          <Tabs.Tab title={t('transfer.byEmail')} key="email" />
          <Tabs.Tab title={t('transfer.byUid')} key="uid" />
        </Tabs>
        <div className="mt-3 flex items-center gap-2">
          <Input
            className="transfer-recipient-input"
            value={recipientText}
            onChange={changeRecipient}
            onEnterPress={lookUpNow}
            type={mode === 'email' ? 'email' : 'text'}
            inputMode={mode === 'email' ? 'email' : 'numeric'}
            name={mode === 'email' ? 'recipient-email' : 'recipient-uid'}
            aria-label={t('transfer.recipient')}
            placeholder={t(mode === 'email' ? 'transfer.emailPlaceholder' : 'transfer.uidPlaceholder')}
            clearable
          />
          <Button size="small" color="primary" fill="outline" loading={lookingUp} onClick={lookUpNow} data-testid="recipient-check">
            {t('transfer.check')}
          </Button>
        </div>
        {recipientError ? <div className="wallet-error" data-testid="recipient-error">{recipientError}</div> : null}
        {showErrors && !recipient && !recipientError ? (
          <div className="wallet-error">{t('transfer.checkFirst')}</div>
        ) : null}
        {recipient ? (
          <div className="mt-3">
            <RecipientCard recipient={recipient} />
          </div>
        ) : null}
      </div>

      <div className="wallet-card">
        <div className="mb-3 flex items-center justify-between">
          <span className="font-semibold">{t('transfer.amount')}</span>
          <CurrencyButton
            code={currency?.code}
            icon={currency?.icon}
            placeholder={t('wallet.chooseCurrency')}
            onClick={() => setPickerOpen(true)}
            testId="transfer-currency"
          />
        </div>
        <AmountField
          value={amount}
          onChange={setAmount}
          decimals={currency?.decimals ?? 0}
          open={keyboardOpen}
          onOpenChange={setKeyboardOpen}
          label={t('transfer.amount')}
          placeholder={t('transfer.amountPlaceholder')}
          suffix={currency?.code}
          invalid={showErrors && !!amountError}
        />
        {showErrors && amountError ? <div className="wallet-error" data-testid="amount-error">{amountError}</div> : null}
        <div className="mt-2 flex items-center justify-between">
          <span className="wallet-muted" data-testid="transfer-available">
            {t('wallet.available', { amount: formatMoney(available, currency), code: currency?.code ?? '' })}
          </span>
          <button
            type="button"
            className="wallet-link"
            disabled={!available}
            onClick={() => available && setAmount(available === '0' ? '' : available)}
          >
            {t('wallet.all')}
          </button>
        </div>
        {currency?.transferMin || currency?.transferMax ? (
          <div className="wallet-muted mt-1">
            {t('transfer.limits', {
              min: formatAmount(currency.transferMin),
              max: formatAmount(currency.transferMax),
              code: currency.code,
            })}
          </div>
        ) : null}
      </div>

      <div className="wallet-card">
        <label htmlFor="transfer-memo" className="mb-2 block font-semibold">
          {t('transfer.memo')}
        </label>
        <TextArea
          id="transfer-memo"
          value={memo}
          onChange={setMemo}
          onFocus={() => setKeyboardOpen(false)}
          name="memo"
          placeholder={t('transfer.memoPlaceholder')}
          maxLength={MEMO_MAX}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      </div>

      <Button block color="primary" size="large" onClick={openConfirm} data-testid="transfer-next">
        {t('transfer.next')}
      </Button>

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={pickerOpen}
        onClose={() => setPickerOpen(false)}
        currencies={options}
        selectedId={currency?.id}
        available={availableById}
        onSelect={(picked) => {
          setCurrencyId(picked.id);
          setAmount('');
          idempotencyKey.current = null;
        }}
      />

      <Popup
        visible={confirming}
        onMaskClick={() => !send.isPending && setConfirming(false)}
        bodyClassName="wallet-popup"
        destroyOnClose
      >
        <div data-testid="transfer-confirm">
          <h3 className="wallet-popup-title">{t('transfer.confirmTitle')}</h3>
          <div className="wallet-big-amount" data-testid="confirm-amount">
            {check?.ok ? formatAmount(check.value) : '--'} {currency?.code}
          </div>
          {recipient ? <RecipientCard recipient={recipient} /> : null}
          <div className="mt-3">
            <div className="wallet-row">
              <span>{t('transfer.method')}</span>
              <span>{t(mode === 'email' ? 'transfer.byEmail' : 'transfer.byUid')}</span>
            </div>
            <div className="wallet-row">
              <span>{t('bill.fields.fee')}</span>
              <span>{t('transfer.noFee')}</span>
            </div>
            {memo.trim() ? (
              <div className="wallet-row">
                <span>{t('bill.fields.memo')}</span>
                <span data-testid="confirm-memo">{memo.trim()}</span>
              </div>
            ) : null}
          </div>
          <div className="mt-4 flex gap-3">
            <Button block size="large" disabled={send.isPending} onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              block
              color="primary"
              size="large"
              loading={send.isPending}
              onClick={() => void submit()}
              data-testid="transfer-submit"
            >
              {t('transfer.confirm')}
            </Button>
          </div>
        </div>
      </Popup>
    </div>
  );
}
