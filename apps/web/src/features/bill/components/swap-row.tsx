import type { SwapRecord } from '@coffer/contract/swap';
import { List } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatMoney } from '../../../lib/amount-format';
import { formatTime } from '../utils/days';

export function SwapRow({ record }: { record: SwapRecord }) {
  const navigate = useNavigate();
  return (
    <List.Item
      data-testid={`swap-row-${record.id}`}
      prefix={<CurrencyIcon code={record.fromCurrency} size={32} />}
      description={formatTime(record.createdAt)}
      extra={
        <div>
          <div className="font-semibold wallet-amount-in">
            +{formatMoney(record.toAmount, record.toCurrency)} {record.toCurrency}
          </div>
          <div className="wallet-muted">
            -{formatMoney(record.fromAmount, record.fromCurrency, 'up')} {record.fromCurrency}
          </div>
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=swap&id=${record.id}`)}
    >
      {record.fromCurrency} → {record.toCurrency}
    </List.Item>
  );
}
