import type { WithdrawRecord } from '@coffer/contract/chain';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChainStatusTag } from '../../../components/wallet/chain-status';
import { formatAmount } from '../../../lib/money';
import { shortHash } from '../../../lib/wallet/address';
import { useWithdrawal } from '../../../lib/wallet/withdrawals';

/** After submitting: the withdrawal as it moves on (review, queued, broadcast...), with the way to its detail. */
export function WithdrawResult({ record: submitted, onAgain }: { record: WithdrawRecord; onAgain: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const live = useWithdrawal(submitted.id, true, submitted);
  const record = live.data ?? submitted;
  const failed = record.status === 'failed' || record.status === 'rejected';

  return (
    <div className="wallet-page" data-testid="withdraw-result">
      <Result
        status={failed ? 'error' : record.status === 'completed' ? 'success' : 'waiting'}
        title={t(failed ? 'withdraw.resultFailed' : record.status === 'completed' ? 'withdraw.resultDone' : 'withdraw.resultTitle')}
        description={t('withdraw.resultDescription', {
          amount: formatAmount(record.amount),
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
          <span data-testid="withdraw-result-id">{record.id}</span>
        </div>
        <div className="wallet-row">
          <span>{t('withdraw.receive')}</span>
          <span>
            {formatAmount(record.amount)} {record.code}
          </span>
        </div>
        <div className="wallet-row">
          <span>{t('bill.fields.fee')}</span>
          <span>
            {formatAmount(record.fee)} {record.code}
          </span>
        </div>
        <div className="wallet-row">
          <span>{t('withdraw.total')}</span>
          <span>
            {formatAmount(record.total)} {record.code}
          </span>
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
