import type { WithdrawRecord } from '@coffer/contract/chain';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ChainStatusTag } from '../../../components/wallet/chain-status';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatMoney } from '../../../lib/amount-format';
import { shortHash } from '../../../lib/wallet/address';
import { formatTime } from '../utils/days';

export function WithdrawRow({ record }: { record: WithdrawRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <List.Item
      data-testid={`withdraw-row-${record.id}`}
      className="chain-row"
      prefix={<CurrencyIcon code={record.code} size={32} />}
      description={formatTime(record.createdAt)}
      extra={
        <div>
          <div className="font-semibold wallet-amount-out">
            -{formatMoney(record.amount, record.code, 'up')} {record.code}
          </div>
          <div className="bill-chain-status">
            <ChainStatusTag kind="withdraw" status={record.status} testId="withdraw-status" />
          </div>
          {record.waitReason ? (
            <div className="wallet-muted text-xs" data-testid="withdraw-wait-reason">
              {t(`withdraw.waitReasons.${record.waitReason}`)}
            </div>
          ) : null}
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=withdraw&id=${record.id}`)}
    >
      <div className="truncate">{t('bill.withdrawTo', { address: shortHash(record.address) })}</div>
    </List.Item>
  );
}
