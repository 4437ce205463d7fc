import { compareAmounts } from './money';

/**
 * Amount entry on the numeric keypad and its checks before anything is sent. Everything
 * works on the typed string; nothing passes through a float.
 */

/** NUMERIC(38,18) leaves 20 digits before the point (contract LEDGER_MAX_INTEGER_DIGITS). */
export const MAX_INTEGER_DIGITS = 20;

/**
 * The text after one keypad press, or the same text when the key would make it malformed:
 * one point at most, no leading zeros, never more decimals than the currency has.
 */
export function appendAmountKey(current: string, key: string, decimals: number): string {
  if (key === '.') {
    if (decimals === 0 || current.includes('.')) return current;
    return current === '' ? '0.' : `${current}.`;
  }
  if (!/^\d$/.test(key)) return current;
  const [int = '', frac] = current.split('.');
  if (frac !== undefined) return frac.length >= decimals ? current : current + key;
  if (int === '0') return key;
  if (int.length >= MAX_INTEGER_DIGITS) return current;
  return current + key;
}

export function deleteAmountKey(current: string): string {
  return current.slice(0, -1);
}

export type AmountError = 'required' | 'shape' | 'zero' | 'decimals' | 'tooLarge' | 'belowMin' | 'aboveMax' | 'balance';

export interface AmountRules {
  decimals: number;
  /** Smallest and largest accepted amount; null or absent: no bound. */
  min?: string | null;
  max?: string | null;
  /** What the user can spend; absent when unknown (e.g. signed out). */
  available?: string | null;
}

export type AmountCheck = { ok: true; value: string } | { ok: false; error: AmountError };

const AMOUNT_RE = /^(\d+)(?:\.(\d*))?$/;

/**
 * Validates a typed amount the way the server will (3002 rules, then 3001), and returns
 * its canonical form ("01.50" -> "1.5") for the request body.
 */
export function checkAmountInput(raw: string, rules: AmountRules): AmountCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, error: 'required' };
  const match = AMOUNT_RE.exec(text);
  if (!match) return { ok: false, error: 'shape' };
  const int = match[1]!.replace(/^0+(?=\d)/, '');
  const frac = (match[2] ?? '').replace(/0+$/, '');
  if (int.length > MAX_INTEGER_DIGITS) return { ok: false, error: 'tooLarge' };
  if (frac.length > rules.decimals) return { ok: false, error: 'decimals' };
  const value = frac ? `${int}.${frac}` : int;
  if (/^0*$/.test(int + frac)) return { ok: false, error: 'zero' };
  if (rules.min && compareAmounts(value, rules.min) < 0) return { ok: false, error: 'belowMin' };
  if (rules.max && compareAmounts(value, rules.max) > 0) return { ok: false, error: 'aboveMax' };
  if (rules.available != null && compareAmounts(value, rules.available) > 0) return { ok: false, error: 'balance' };
  return { ok: true, value };
}
