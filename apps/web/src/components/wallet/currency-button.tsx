import { DownOutline } from 'antd-mobile-icons';
import { CurrencyIcon } from './currency-icon';

/** The tappable "[icon] USDT v" that opens a CurrencyPicker. */
export function CurrencyButton({
  code,
  icon,
  placeholder,
  onClick,
  testId,
}: {
  code?: string;
  icon?: string | null;
  placeholder: string;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <button type="button" className="currency-button" onClick={onClick} data-testid={testId}>
      {code ? <CurrencyIcon code={code} icon={icon} size={24} /> : null}
      <span>{code ?? placeholder}</span>
      <DownOutline fontSize={12} />
    </button>
  );
}
