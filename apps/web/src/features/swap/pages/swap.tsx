import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../swap.css';
import { Button, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SwapIcon } from '../../../components/icons';
import { AmountCard, AvailableRow } from '../../../components/wallet/amount-card';
import { KeyboardSpacer } from '../../../components/wallet/amount-field';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { StepUpField } from '../../../components/wallet/step-up-field';
import { formatMoney } from '../../../lib/amount-format';
import { useStepUp } from '../../../lib/step-up';
import { useUserStore } from '../../../stores/user';
import { SwapPairInfo } from '../components/swap-pair-info';
import { SwapQuoteSheet } from '../components/swap-quote-sheet';
import { SwapSuccess } from '../components/swap-success';
import { useSwapForm } from '../hooks/use-swap-form';
import { useSwapQuote } from '../hooks/use-swap-quote';
import { swapLoginPath } from '../utils/sign-in-draft';

/** /swap (a public tab): pick a pair and an amount, take a held quote, swap at its price. */
export default function SwapPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Swaps ask for the second factor when the user opted in (decision 033).
  const stepUp = useStepUp(useUserStore((state) => state.user?.stepUpSwaps === true));
  const quote = useSwapQuote((message) => form.refuseAmount(message), stepUp);
  const form = useSwapForm(quote.drop);
  const { from, to, fromId, toId, estimate } = form;
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [picking, setPicking] = useState<'from' | 'to' | null>(null);

  const requestQuote = () => {
    form.showErrors();
    setKeyboardOpen(false);
    if (!form.signedIn) {
      navigate(swapLoginPath({ fromId, toId, amount: form.amount }));
      return;
    }
    if (form.checkedAmount === null || fromId === undefined || toId === undefined || !stepUp.ready) return;
    void quote.request({ fromCurrencyId: fromId, toCurrencyId: toId, amount: form.checkedAmount });
  };

  if (quote.result) {
    const again = () => {
      quote.clearResult();
      form.reset();
    };
    return <SwapSuccess result={quote.result} currencyOf={form.currencyOf} onAgain={again} />;
  }

  return (
    <div className="wallet-page swap-page" data-testid="swap-page">
      <h1 className="swap-heading">{t('routes.swap')}</h1>
      {form.loading ? (
        <div className="wallet-card">
          <Skeleton.Paragraph animated lineCount={5} />
        </div>
      ) : (
        <>
          <AmountCard
            label={t('swap.pay')}
            headerEnd={
              <CurrencyButton
                code={from?.code}
                icon={from?.icon}
                placeholder={t('wallet.chooseCurrency')}
                onClick={() => setPicking('from')}
                testId="swap-from"
              />
            }
            value={form.amount}
            onChange={form.setAmount}
            decimals={from?.decimals ?? null}
            keyboardOpen={keyboardOpen}
            onKeyboardOpenChange={setKeyboardOpen}
            placeholder={t('swap.amountPlaceholder')}
            suffix={from?.code}
            error={form.amountError}
          >
            {form.signedIn ? (
              <AvailableRow available={form.available} currency={from} onAll={form.setAmount} testId="swap-available" />
            ) : null}
          </AmountCard>

          <div className="swap-flip-row">
            <button type="button" className="swap-flip" onClick={form.flip} aria-label={t('swap.flip')} data-testid="swap-flip">
              <SwapIcon />
            </button>
          </div>

          <section className="wallet-card">
            <div className="mb-2 flex items-center justify-between">
              <span className="wallet-card-title m-0">{t('swap.receive')}</span>
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
          </section>

          <SwapPairInfo pair={form.pair} from={from} to={to} />

          <StepUpField stepUp={stepUp} name="swap" showErrors={form.errorsShown} onFocus={() => setKeyboardOpen(false)} />

          <Button
            block
            color="primary"
            size="large"
            loading={quote.requesting}
            disabled={!form.pair}
            onClick={requestQuote}
            data-testid="swap-quote"
          >
            {form.signedIn ? t('swap.getQuote') : t('swap.signInToSwap')}
          </Button>
        </>
      )}

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={picking !== null}
        onClose={() => setPicking(null)}
        currencies={picking === 'to' ? form.toOptions : form.fromOptions}
        selectedId={picking === 'to' ? toId : fromId}
        available={form.availableById}
        onSelect={picking === 'from' ? form.pickFrom : form.pickTo}
      />

      <SwapQuoteSheet
        quote={quote.held}
        visible={quote.open}
        from={from}
        to={to}
        feeCurrency={quote.held ? form.byId.get(quote.held.feeCurrencyId) : undefined}
        secondsLeft={quote.secondsLeft}
        expired={quote.expired}
        requesting={quote.requesting}
        applying={quote.applying}
        onCancel={quote.close}
        onRequote={requestQuote}
        onConfirm={() => void quote.confirm()}
      />
    </div>
  );
}
