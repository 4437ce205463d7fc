import type { Network } from '@coffer/contract/chain';
import { Button, Popup } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Amount } from '../../../components/wallet/amount';

/** What the user asked for; the fee and total come from the current quote (WithdrawSheet). */
export interface WithdrawSummary {
  network: Network;
  address: string;
  amount: string;
}

export interface WithdrawSheet extends WithdrawSummary {
  fee: string;
  total: string;
  feesHigh: boolean;
}

/** The last look before money leaves: where to, what arrives, the fee, what is held. */
export function WithdrawConfirm({
  summary,
  visible,
  pending,
  notice,
  onCancel,
  onConfirm,
}: {
  summary: WithdrawSheet | null;
  /** Said above the buttons: the fee changed, payouts wait for fees to fall. */
  notice?: ReactNode;
  visible: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const code = summary?.network.code ?? '';
  return (
    <Popup visible={visible} onMaskClick={() => !pending && onCancel()} bodyClassName="wallet-popup" destroyOnClose>
      {summary ? (
        <div data-testid="withdraw-confirm">
          <h3 className="wallet-popup-title">{t('withdraw.confirmTitle')}</h3>
          <div className="wallet-big-amount">
            <Amount value={summary.amount} code={code} rounding="up" testId="confirm-amount" />
          </div>
          <div className="wallet-row">
            <span>{t('chain.network')}</span>
            <span data-testid="confirm-network">{summary.network.name}</span>
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.address')}</span>
            <span className="chain-mono" data-testid="confirm-address">
              {summary.address}
            </span>
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.receive')}</span>
            <Amount value={summary.amount} code={code} testId="confirm-receive" />
          </div>
          <div className="wallet-row">
            <span>{t('bill.fields.fee')}</span>
            <Amount value={summary.fee} code={code} rounding="up" testId="confirm-fee" />
          </div>
          <div className="wallet-row">
            <span>{t('withdraw.total')}</span>
            <Amount value={summary.total} code={code} rounding="up" className="font-semibold" testId="confirm-total" />
          </div>
          {notice}
          <p className="wallet-muted mt-2 mb-0">{t('withdraw.confirmHint')}</p>
          <div className="mt-4 flex gap-3">
            <Button block size="large" disabled={pending} onClick={onCancel} data-testid="withdraw-confirm-cancel">
              {t('common.cancel')}
            </Button>
            <Button block color="primary" size="large" loading={pending} onClick={onConfirm} data-testid="withdraw-submit">
              {t('withdraw.confirm')}
            </Button>
          </div>
        </div>
      ) : null}
    </Popup>
  );
}
