import './motion';
import type { Currency } from '@coffer/contract/ledger';
import { List, Popup } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/amount-format';
import { CurrencyIcon } from './currency-icon';

export interface CurrencyPickerProps {
  visible: boolean;
  onClose: () => void;
  currencies: readonly Currency[];
  selectedId?: number;
  /** Available balance per currency id, shown next to each when known. */
  available?: ReadonlyMap<number, string>;
  disabledIds?: readonly number[];
  onSelect: (currency: Currency) => void;
  title?: string;
}

export function CurrencyPicker({
  visible,
  onClose,
  currencies,
  selectedId,
  available,
  disabledIds = [],
  onSelect,
  title,
}: CurrencyPickerProps) {
  const { t } = useTranslation();
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="currency-picker" destroyOnClose>
      <div className="currency-picker-title">{title ?? t('wallet.chooseCurrency')}</div>
      <List>
        {currencies.map((currency) => (
          <List.Item
            key={currency.id}
            data-testid={`currency-option-${currency.code}`}
            prefix={<CurrencyIcon code={currency.code} icon={currency.icon} size={28} />}
            description={currency.name}
            disabled={disabledIds.includes(currency.id)}
            extra={
              <span className="flex items-center gap-2">
                {available?.has(currency.id) ? formatMoney(available.get(currency.id), currency) : null}
                {currency.id === selectedId ? <CheckOutline color="var(--adm-color-primary)" /> : null}
              </span>
            }
            onClick={() => {
              onSelect(currency);
              onClose();
            }}
            arrow={false}
          >
            {currency.code}
          </List.Item>
        ))}
      </List>
    </Popup>
  );
}
