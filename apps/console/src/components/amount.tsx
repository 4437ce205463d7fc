import { displayDecimals, formatAmount } from '@coffer/contract/rules';
import { Tooltip, Typography } from 'antd';
import { useCurrencies } from '../lib/currencies';

interface AmountProps {
  /** A decimal string as the API answers it ("1234.500000000000000000"); never a JS number. */
  value: string | null | undefined;
  /** The currency code ("USDT"): its display precision is the phone app's (the contract's rule). */
  currency: string;
  /** Show the code after the figure (default true). */
  withCode?: boolean;
}

/**
 * One amount as the phone app shows it: grouped, cut (never rounded up) to the currency's
 * display precision, tabular digits. The exact value is one hover or tap away, and copyable.
 * Table columns that hold amounts set `align: 'right'` (see amountColumn).
 */
export function Amount({ value, currency, withCode = true }: AmountProps) {
  const { data: currencies } = useCurrencies();
  const known = currencies?.find((c) => c.code === currency);
  const decimals = displayDecimals(known ?? { code: currency, decimals: 18 });
  const shown = formatAmount(value, { decimals });
  const exact = formatAmount(value);
  return (
    <Tooltip title={<Typography.Text copyable={{ text: exact }}>{`${exact} ${currency}`}</Typography.Text>}>
      <span className="amount" data-exact={value ?? ''}>
        {shown}
        {withCode ? ` ${currency}` : ''}
      </span>
    </Tooltip>
  );
}

/** The column props every amount column shares: right-aligned so the digits line up. */
export const amountColumn = { align: 'right' as const, className: 'amount-cell' };
