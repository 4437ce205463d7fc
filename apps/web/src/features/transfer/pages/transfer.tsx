import '../../../components/wallet/motion';
import '../../../components/wallet/wallet.css';
import { MEMO_MAX } from '@coffer/contract/ledger';
import { Button, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountCard, AvailableRow } from '../../../components/wallet/amount-card';
import { useMoneyText } from '../../../components/wallet/amount';
import { KeyboardSpacer } from '../../../components/wallet/amount-field';
import { CurrencyButton } from '../../../components/wallet/currency-button';
import { CurrencyPicker } from '../../../components/wallet/currency-picker';
import { StepUpField } from '../../../components/wallet/step-up-field';
import { RecipientField } from '../components/recipient-field';
import { TransferConfirm } from '../components/transfer-confirm';
import { TransferSuccess } from '../components/transfer-success';
import { useTransferForm } from '../hooks/use-transfer-form';

/** /transfer: send to another user by e-mail or UID, after a look at who that is. */
export default function TransferPage() {
  const { t } = useTranslation();
  const money = useMoneyText();
  const form = useTransferForm();
  const { currency, available } = form;
  const [keyboardOpen, setKeyboardOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);

  if (form.result) return <TransferSuccess result={form.result} onAgain={form.again} />;

  return (
    <div className="wallet-page" data-testid="transfer-page">
      <RecipientField lookup={form.recipient} showErrors={form.showErrors} />

      <AmountCard
        label={t('transfer.amount')}
        headerEnd={
          <CurrencyButton
            code={currency?.code}
            icon={currency?.icon}
            placeholder={t('wallet.chooseCurrency')}
            onClick={() => setPickerOpen(true)}
            testId="transfer-currency"
          />
        }
        value={form.amount}
        onChange={form.setAmount}
        decimals={currency?.decimals ?? null}
        keyboardOpen={keyboardOpen}
        onKeyboardOpenChange={setKeyboardOpen}
        placeholder={t('transfer.amountPlaceholder')}
        suffix={currency?.code}
        error={form.amountError}
      >
        <AvailableRow available={available} currency={currency} onAll={form.setAmount} testId="transfer-available" />
        {currency?.transferMin || currency?.transferMax ? (
          <div className="wallet-muted mt-1">
            {t('transfer.limits', {
              min: money(currency.transferMin, currency.code, 'up'),
              max: money(currency.transferMax, currency.code),
              code: currency.code,
            })}
          </div>
        ) : null}
      </AmountCard>

      <section className="wallet-card">
        <label htmlFor="transfer-memo" className="mb-2 block font-semibold">
          {t('transfer.memo')}
        </label>
        <TextArea
          id="transfer-memo"
          value={form.memo}
          onChange={form.setMemo}
          onFocus={() => setKeyboardOpen(false)}
          name="memo"
          placeholder={t('transfer.memoPlaceholder')}
          maxLength={MEMO_MAX}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
        />
      </section>

      <StepUpField stepUp={form.stepUp} name="transfer" showErrors={form.showErrors} onFocus={() => setKeyboardOpen(false)} />

      <Button
        block
        color="primary"
        size="large"
        onClick={() => {
          setKeyboardOpen(false);
          form.openConfirm();
        }}
        data-testid="transfer-next"
      >
        {t('transfer.next')}
      </Button>

      <KeyboardSpacer open={keyboardOpen} />

      <CurrencyPicker
        visible={pickerOpen}
        onClose={() => setPickerOpen(false)}
        currencies={form.options}
        selectedId={currency?.id}
        available={form.availableById}
        onSelect={form.pickCurrency}
      />

      <TransferConfirm
        visible={form.confirming}
        pending={form.pending}
        amount={form.checkedAmount}
        currency={currency}
        recipient={form.recipient.recipient}
        mode={form.recipient.mode}
        memo={form.memo.trim()}
        onCancel={() => form.setConfirming(false)}
        onConfirm={() => void form.submit()}
      />
    </div>
  );
}
