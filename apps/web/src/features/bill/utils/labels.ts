import type { TFunction } from 'i18next';

/** A statement line type's label; types added by the ledger later show their own name. */
export function turnoverTypeLabel(t: TFunction, type: string): string {
  return t(`statement.types.${type}`, { defaultValue: type });
}

/** "+1.5" for credits, "-1.5" for debits: amounts that arrive unsigned get the sign here. */
export function signed(amount: string, direction: 'in' | 'out'): string {
  return direction === 'in' ? `+${amount}` : `-${amount}`;
}

/** The sign colour class for a signed decimal string. */
export function signClass(amount: string): string {
  return amount.startsWith('-') ? 'wallet-amount-out' : 'wallet-amount-in';
}
