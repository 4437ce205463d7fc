import type { DepositRecord } from '@coffer/contract/chain';
import { List } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { ChainStatusTag, confirmationsText } from '../../../components/wallet/chain-status';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatMoney } from '../../../lib/amount-format';
import { formatTime } from '../utils/days';

export function DepositRow({ record }: { record: DepositRecord }) {
  const navigate = useNavigate();
  return (
    <List.Item
      data-testid={`deposit-row-${record.id}`}
      className="chain-row"
      prefix={<CurrencyIcon code={record.code} size={32} />}
      description={formatTime(record.createdAt)}
      extra={
        <div>
          <div className="font-semibold wallet-amount-in">
            +{formatMoney(record.amount, record.code)} {record.code}
          </div>
          <div className="bill-chain-status">
            {record.status === 'pending' ? (
              <span className="wallet-muted" data-testid="deposit-confirmations">
                {confirmationsText(record.confirmations, record.confirmationsRequired)}
              </span>
            ) : null}
            <ChainStatusTag kind="deposit" status={record.status} testId="deposit-status" />
          </div>
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=charge&id=${record.id}`)}
    >
      <div className="truncate">{record.networkName}</div>
    </List.Item>
  );
}
