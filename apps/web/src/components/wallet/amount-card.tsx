import type { Currency } from '@coffer/contract/ledger';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/amount-format';
import { isZeroAmount } from '../../lib/money';
import { AmountField } from './amount-field';

export interface AmountCardProps {
  /** The card's heading, and the amount field's accessible name. */
  label: string;
  /** Right of the heading: the currency button (transfer, swap) or "All" (withdraw). */
  headerEnd?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  /** The currency's decimals; null while it is not known (the field is disabled then). */
  decimals: number | null;
  keyboardOpen: boolean;
  onKeyboardOpenChange: (open: boolean) => void;
  placeholder: string;
  suffix?: string;
  /** The message under the field (local check or the server's refusal); null shows none. */
  error: string | null;
  fieldTestId?: string;
  /** Rows under the field: what is available, fees, limits. */
  children?: ReactNode;
}

/**
 * The amount card of the money pages (transfer, swap, withdraw): one heading, the keypad
 * field, its error tied to it (aria-describedby), then the page's own rows.
 */
export function AmountCard({
  label,
  headerEnd,
  value,
  onChange,
  decimals,
  keyboardOpen,
  onKeyboardOpenChange,
  placeholder,
  suffix,
  error,
  fieldTestId,
  children,
}: AmountCardProps) {
  const errorId = useId();
  return (
    <section className="wallet-card">
      <div className="mb-3 flex items-center justify-between">
        <span className="wallet-card-title m-0">{label}</span>
        {headerEnd}
      </div>
      <AmountField
        value={value}
        onChange={onChange}
        decimals={decimals}
        open={keyboardOpen}
        onOpenChange={onKeyboardOpenChange}
        label={label}
        placeholder={placeholder}
        suffix={suffix}
        invalid={error !== null}
        describedBy={error === null ? undefined : errorId}
        testId={fieldTestId}
      />
      {error === null ? null : (
        <div id={errorId} className="wallet-error" data-testid="amount-error">
          {error}
        </div>
      )}
      {children}
    </section>
  );
}

/** "Available: 12.5 USDT" with the All link that fills it in (disabled at nothing). */
export function AvailableRow({
  available,
  currency,
  onAll,
  testId,
}: {
  available: string | null;
  currency: Currency | undefined;
  onAll: (amount: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const usable = available !== null && !isZeroAmount(available) ? available : null;
  return (
    <div className="mt-2 flex items-center justify-between">
      <span className="wallet-muted" data-testid={testId}>
        {t('wallet.available', { amount: formatMoney(available, currency), code: currency?.code ?? '' })}
      </span>
      <button type="button" className="wallet-link" disabled={usable === null} onClick={() => usable && onAll(usable)}>
        {t('wallet.all')}
      </button>
    </div>
  );
}
