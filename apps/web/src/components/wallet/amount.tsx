import './chain.css';
import type { Rounding } from '@coffer/contract/rules';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CurrencyLike, formatExact, formatMoney, isRounded } from '../../lib/amount-format';
import { useCurrencies } from '../../lib/wallet/currencies';
import { CopyButton } from './copy-button';

/**
 * The currency as the operator set it (currencies.display_decimals from /api/currency/list),
 * or the bare code (the contract's table) until the list has loaded.
 */
export function useDisplayCurrency(code: string): CurrencyLike | string {
  const { data } = useCurrencies();
  return data?.find((currency) => currency.code === code) ?? code;
}

export interface AmountProps {
  /** The exact decimal string from the API. */
  value: string;
  code: string;
  /** A sign to write before the number ('+' received, '-' paid). */
  sign?: '+' | '-' | '';
  /** 'down' for what the user has or gets, 'up' for what they pay (fees, amounts sent). */
  rounding?: Rounding;
  testId?: string;
  className?: string;
}

/** An amount inside a sentence (summaries, dialogs, toasts): the same display precision as Amount. */
export function useMoneyText(): (value: string | null | undefined, code: string, rounding?: Rounding) => string {
  const { data } = useCurrencies();
  return (value, code, rounding = 'down') => formatMoney(value, data?.find((currency) => currency.code === code) ?? code, rounding);
}

/**
 * Every amount on a detail or result screen: the currency's display precision, with the exact
 * value one tap away (tap the number to see every decimal the ledger holds, and copy it).
 * Lists use formatMoney directly; both read the same precision
 * (docs/decisions/059-exact-on-tap-and-chain-references.md).
 */
export function Amount({ value, code, sign = '', rounding = 'down', testId, className }: AmountProps) {
  const { t } = useTranslation();
  const currency = useDisplayCurrency(code);
  const [exact, setExact] = useState(false);
  const known = typeof currency === 'string' ? { code: currency, decimals: 18 } : currency;
  const rounded = isRounded(value, known);
  const shown = exact ? formatExact(value) : formatMoney(value, currency, rounding);
  const text = `${sign}${shown} ${code}`;
  if (!rounded) {
    return (
      <span className={className} data-testid={testId}>
        {text}
      </span>
    );
  }
  return (
    <span className={`wallet-amount-exact ${className ?? ''}`}>
      <button
        type="button"
        className="wallet-amount-toggle"
        title={t(exact ? 'bill.showRounded' : 'bill.showExact')}
        aria-pressed={exact}
        data-testid={testId}
        onClick={() => setExact(!exact)}
      >
        {text}
      </button>
      {exact ? <CopyButton value={value} label={t('bill.copyAmount')} testId={testId ? `${testId}-copy` : undefined} /> : null}
    </span>
  );
}
