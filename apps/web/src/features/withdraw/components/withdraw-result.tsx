import type { WithdrawRecord } from '@coffer/contract/chain';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Amount, useMoneyText } from '../../../components/wallet/amount';
import { ChainStatusTag } from '../../../components/wallet/chain-status';
import { shortHash } from '../../../lib/wallet/address';
import { useWithdrawal } from '../../../lib/wallet/withdrawals';

/** After submitting: the withdrawal as it moves on (review, queued, broadcast...), with the way to its detail. */
export function WithdrawResult({ record: submitted, onAgain }: { record: WithdrawRecord; onAgain: () => void }) {
  const { t } = useTranslation();
  const money = useMoneyText();
  const navigate = useNavigate();
  const live = useWithdrawal(submitted.id, true, submitted);
  const record = live.data ?? submitted;
  const failed = record.status === 'failed' || record.status === 'rejected';

  return (
    <div className="wallet-page" data-testid="withdraw-result" data-withdrawal-id={record.id}>
      <Result
        status={failed ? 'error' : record.status === 'completed' ? 'success' : 'waiting'}
        title={t(failed ? 'withdraw.resultFailed' : record.status === 'completed' ? 'withdraw.resultDone' : 'withdraw.resultTitle')}
        description={t('withdraw.resultDescription', {
          amount: money(record.amount, record.code, 'up'),
          code: record.code,
          address: shortHash(record.address),
        })}
      />
      <div className="wallet-card">
        <div className="wallet-row">
          <span>{t('bill.fields.status')}</span>
          <span>
            <ChainStatusTag kind="withdraw" status={record.status} testId="withdraw-result-status" />
          </span>
        </div>
        <div className="wallet-row">
          <span>{t('bill.fields.id')}</span>
          <span data-testid="withdraw-result-id">{record.reference}</span>
        </div>
        <div className="wallet-row">
          <span>{t('withdraw.receive')}</span>
          <Amount value={record.amount} code={record.code} testId="withdraw-result-receive" />
        </div>
        <div className="wallet-row">
          <span>{t('bill.fields.fee')}</span>
          <Amount value={record.fee} code={record.code} rounding="up" testId="withdraw-result-fee" />
        </div>
        <div className="wallet-row">
          <span>{t('withdraw.total')}</span>
          <Amount value={record.total} code={record.code} rounding="up" testId="withdraw-result-total" />
        </div>
        <p className="wallet-muted mb-0 mt-2">{t(`withdraw.statusHint.${record.status}`)}</p>
      </div>
      <Button
        block
        color="primary"
        size="large"
        onClick={() => navigate(`/bill/detail?type=withdraw&id=${record.id}`)}
        data-testid="withdraw-view-detail"
      >
        {t('withdraw.viewDetail')}
      </Button>
      <Button block size="large" onClick={onAgain} data-testid="withdraw-again">
        {t('withdraw.again')}
      </Button>
    </div>
  );
}
