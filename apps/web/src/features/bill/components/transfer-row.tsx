import type { TransferRecord } from '@coffer/contract/ledger';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatMoney } from '../../../lib/amount-format';
import { signClass, signed } from '../utils/labels';
import { formatTime } from '../utils/days';

export function TransferRow({ record }: { record: TransferRecord }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const amount = signed(formatMoney(record.amount, record.code, record.direction === 'out' ? 'up' : 'down'), record.direction);
  const who = record.counterparty.nickname || record.counterparty.maskedEmail;
  return (
    <List.Item
      data-testid={`transfer-row-${record.id}`}
      prefix={<CurrencyIcon code={record.code} size={32} />}
      description={formatTime(record.createdAt)}
      extra={
        <div>
          <div className={`font-semibold ${signClass(amount)}`}>
            {amount} {record.code}
          </div>
          <div className="wallet-muted">{t('bill.status.success')}</div>
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=transfer&id=${record.id}`)}
    >
      <div className="truncate">{t(record.direction === 'in' ? 'bill.receivedFrom' : 'bill.sentTo', { name: who })}</div>
    </List.Item>
  );
}
