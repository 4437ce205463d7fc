import type { Currency, Recipient } from '@coffer/contract/ledger';
import { Button, Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../components/wallet/amount';
import type { RecipientMode } from '../utils/recipient-target';
import { RecipientCard } from './recipient-card';

export interface TransferConfirmProps {
  visible: boolean;
  pending: boolean;
  amount: string | null;
  currency: Currency | undefined;
  recipient: Recipient | null;
  mode: RecipientMode;
  memo: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The sheet that shows what will be sent, to whom, before Send. */
export function TransferConfirm({ visible, pending, amount, currency, recipient, mode, memo, onCancel, onConfirm }: TransferConfirmProps) {
  const { t } = useTranslation();
  return (
    <Popup visible={visible} onMaskClick={() => !pending && onCancel()} bodyClassName="wallet-popup" destroyOnClose>
      <div data-testid="transfer-confirm">
        <h3 className="wallet-popup-title">{t('transfer.confirmTitle')}</h3>
        <div className="wallet-big-amount">
          {amount && currency ? (
            <Amount value={amount} code={currency.code} rounding="up" testId="confirm-amount" />
          ) : (
            <span data-testid="confirm-amount">--</span>
          )}
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
          {memo ? (
            <div className="wallet-row">
              <span>{t('bill.fields.memo')}</span>
              <span data-testid="confirm-memo">{memo}</span>
            </div>
          ) : null}
        </div>
        <div className="mt-4 flex gap-3">
          <Button block size="large" disabled={pending} onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button block color="primary" size="large" loading={pending} onClick={onConfirm} data-testid="transfer-submit">
            {t('transfer.confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}
