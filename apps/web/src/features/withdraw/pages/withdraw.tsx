import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import '../../../components/wallet/chain.css';
import '../withdraw.css';
import { Button, Skeleton } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountCard } from '../../../components/wallet/amount-card';
import { KeyboardSpacer } from '../../../components/wallet/amount-field';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { EmptyState } from '../../../components/wallet/empty-state';
import { LoadFailed } from '../../../components/wallet/load-failed';
import { NetworkSelector } from '../../../components/wallet/network-selector';
import { StepUpField } from '../../../components/wallet/step-up-field';
import { isZeroAmount } from '../../../lib/money';
import { WithdrawAmountRows } from '../components/withdraw-amount-rows';
import { WithdrawConfirm } from '../components/withdraw-confirm';
import { WithdrawFeeNotes } from '../components/withdraw-fee-notes';
import { AddressField, EmailCodeField } from '../components/withdraw-fields';
import { WithdrawHold } from '../components/withdraw-hold';
import { WithdrawResult } from '../components/withdraw-result';
import { useWithdrawForm } from '../hooks/use-withdraw-form';

/** /withdraw: send funds to an external address on a network, confirmed with an e-mail code. */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const form = useWithdrawForm();
  const { currencies, networks, currency, network, limits, values, change, allValue } = form;
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const closeKeyboard = () => setKeyboardOpen(false);

  if (form.result) return <WithdrawResult record={form.result} onAgain={form.again} />;

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
    const retry = () => {
      void currencies.refetch();
      void networks.refetch();
    };
    return <LoadFailed testId="withdraw-load-failed" onRetry={retry} />;
  }
  if (!currency || !network) {
    return <EmptyState title={t('withdraw.noNetworks')} description={t('withdraw.noNetworksHint')} testId="withdraw-no-networks" />;
  }

  return (
    <div className="wallet-page" data-testid="withdraw-page">
      {form.held && form.hold.data ? (
        <WithdrawHold state={form.hold.data} answeredAt={form.hold.dataUpdatedAt} onEnded={form.hold.refetch} />
      ) : null}
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
          networks={form.currencyNetworks}
          selectedId={network.id}
          onSelect={change.network}
          testId="withdraw-network"
          use="withdraw"
          currency={currency}
        />
        {form.frozen ? (
          <div className="chain-warning mt-3" role="alert" data-testid="withdraw-frozen">
            {t('withdraw.frozen')}
          </div>
        ) : null}
        {limits.isError && !form.limitsData ? (
          <div className="chain-warning mt-3 flex items-center justify-between gap-2" role="alert" data-testid="withdraw-limits-failed">
            <span>{t('withdraw.limitsFailed')}</span>
            <Button size="small" color="primary" fill="outline" className="chain-action" onClick={() => void limits.refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : null}
      </section>

      <AddressField
        value={values.address}
        onChange={change.address}
        error={form.shown('address')}
        onFocus={closeKeyboard}
        networkName={network.name}
        notes={form.addressNotes}
        entries={form.bookEntries}
      />

      <AmountCard
        label={t('withdraw.amount')}
        headerEnd={
          <button
            type="button"
            className="wallet-link withdraw-all"
            disabled={!allValue || isZeroAmount(allValue)}
            onClick={() => allValue && change.amount(isZeroAmount(allValue) ? '' : allValue)}
            data-testid="withdraw-all"
          >
            {t('wallet.all')}
          </button>
        }
        value={values.amount}
        onChange={change.amount}
        decimals={form.decimals}
        keyboardOpen={keyboardOpen}
        onKeyboardOpenChange={setKeyboardOpen}
        placeholder={t('withdraw.amountPlaceholder')}
        suffix={currency.code}
        error={form.shown('amount')}
        fieldTestId="withdraw-amount"
      >
        <WithdrawAmountRows
          currency={currency}
          network={network}
          limits={form.limitsData}
          fee={form.quoted?.fee}
          check={form.amountCheck}
        />
        <WithdrawFeeNotes feeQuote={form.feeQuote} code={currency.code} />
      </AmountCard>

      <EmailCodeField
        value={values.code}
        onChange={change.code}
        error={form.shown('code')}
        onFocus={closeKeyboard}
        email={form.user?.email}
      />

      <StepUpField stepUp={form.stepUp} name="withdraw" showErrors={form.showErrors} onFocus={closeKeyboard} />

      <Button
        block
        color="primary"
        size="large"
        disabled={form.frozen || form.held || !form.limitsData || !form.quoted}
        onClick={() => {
          closeKeyboard();
          form.openConfirm();
        }}
        data-testid="withdraw-next"
      >
        {t('withdraw.next')}
      </Button>

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={pickerOpen}
        onClose={() => setPickerOpen(false)}
        currencies={form.options}
        selectedId={currency.id}
        onSelect={change.currency}
      />

      <WithdrawConfirm
        summary={form.summary}
        visible={form.summary !== null}
        pending={form.pending}
        notice={<WithdrawFeeNotes feeQuote={form.feeQuote} code={currency.code} failed={false} />}
        onCancel={form.closeSummary}
        onConfirm={() => void form.submit()}
      />
    </div>
  );
}
