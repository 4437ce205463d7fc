import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../lib/money';

const MOCK_ROWS = [
  { id: 1, name: 'USDT', amount: '1250.5' },
  { id: 2, name: 'ETH', amount: '0.031400000000000000' },
  { id: 3, name: 'BTC', amount: '0.00210000' },
];

export default function MockPage() {
  const { t } = useTranslation();
  return (
    <List header={t('demo.mockHint')} mode="card">
      {MOCK_ROWS.map((row) => (
        <List.Item key={row.id} extra={formatAmount(row.amount)}>
          {row.name}
        </List.Item>
      ))}
    </List>
  );
}
