import type { TurnoverItem } from '@coffer/contract/turnover';
import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CurrencyIcon } from '../../../components/wallet/currency-icon';
import { formatMoney } from '../../../lib/amount-format';
import { signClass, turnoverTypeLabel } from '../utils/labels';
import { formatTime } from '../utils/days';

export function TurnoverRow({ item }: { item: TurnoverItem }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Money out rounds away from zero, money in toward it: never more than really moved in the user's favour.
  const amount = formatMoney(item.amount, item.currency, item.amount.startsWith('-') ? 'up' : 'down');
  const shown = amount.startsWith('-') ? amount : `+${amount}`;
  const who = item.counterparty ? item.counterparty.nickname || item.counterparty.maskedEmail : null;
  return (
    <List.Item
      data-testid={`turnover-row-${item.id}`}
      prefix={<CurrencyIcon code={item.currency} size={32} />}
      description={
        <>
          {(who ?? item.summary) ? <div className="truncate">{who ?? item.summary}</div> : null}
          <div>{formatTime(item.createdAt)}</div>
        </>
      }
      extra={
        <div>
          <div className={`font-semibold ${signClass(item.amount)}`}>
            {shown} {item.currency}
          </div>
          <div className="wallet-muted">{t('statement.balanceAfter', { amount: formatMoney(item.balanceAfter, item.currency) })}</div>
        </div>
      }
      onClick={() => navigate(`/bill/detail?type=turnover&id=${item.id}`)}
    >
      <span data-testid="turnover-type">{turnoverTypeLabel(t, item.type)}</span>
    </List.Item>
  );
}
