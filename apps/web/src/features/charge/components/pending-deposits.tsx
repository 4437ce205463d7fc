import type { DepositRecord } from '@coffer/contract/chain';
import { List, ProgressBar } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMoneyText } from '../../../components/wallet/amount';
import { ChainStatusTag, confirmationsText } from '../../../components/wallet/chain-status';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { onLiveEvent } from '../../../lib/live/status';
import { toastSuccess } from '../../../lib/notify';
import { shortHash } from '../../../lib/wallet/address';
import { usePendingDeposits } from '../api/get-pending-deposits';

function PendingRow({ record }: { record: DepositRecord }) {
  const navigate = useNavigate();
  const money = useMoneyText();
  const required = Math.max(record.confirmationsRequired, 1);
  const percent = Math.min(100, Math.floor((record.confirmations * 100) / required));
  return (
    <List.Item
      data-testid="pending-deposit"
      className="chain-row"
      data-deposit-id={record.id}
      prefix={<CurrencyIcon code={record.code} size={32} />}
      description={
        <div>
          <div className="truncate">{record.networkName}</div>
          <div className="chain-mono truncate">{shortHash(record.txHash, 8, 6)}</div>
          <ProgressBar percent={percent} className="charge-progress" aria-hidden />
        </div>
      }
      extra={
        <div>
          <div className="font-semibold">
            +{money(record.amount, record.code)} {record.code}
          </div>
          <div className="wallet-muted" data-testid="deposit-confirmations">
            {confirmationsText(record.confirmations, record.confirmationsRequired)}
          </div>
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=charge&id=${record.id}`)}
    >
      <ChainStatusTag kind="deposit" status={record.status} />
    </List.Item>
  );
}

/** The user's deposits on their way, confirmations counting up live ("2/3"). */
export function PendingDeposits() {
  const { t } = useTranslation();
  const query = usePendingDeposits();
  const list = query.data?.list ?? [];

  // A deposit leaves this list when it is credited; say so when the stream reports it.
  useEffect(
    () =>
      onLiveEvent((event) => {
        if (event.type === 'deposit' && event.status === 'credited') toastSuccess(t('charge.credited'));
      }),
    [t],
  );

  return (
    <section className="wallet-card" aria-labelledby="pending-deposits-title" data-testid="pending-deposits">
      <div className="flex items-center justify-between">
        <h2 id="pending-deposits-title" className="wallet-card-title">
          {t('charge.pendingTitle')}
        </h2>
        <Link to="/bill?type=charge" className="charge-records-link" data-testid="charge-records">
          {t('charge.allRecords')}
        </Link>
      </div>
      {list.length === 0 ? (
        <p className="wallet-muted m-0" data-testid="pending-deposits-empty">
          {query.isPending ? t('charge.pendingLoading') : t('charge.pendingEmpty')}
        </p>
      ) : (
        <List className="wallet-list charge-pending-list" style={{ margin: '0 -12px' }}>
          {list.map((record) => (
            <PendingRow key={record.id} record={record} />
          ))}
        </List>
      )}
    </section>
  );
}
