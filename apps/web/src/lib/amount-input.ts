import { AMOUNT_MAX_INTEGER_DIGITS, type AmountProblem, checkAmount, compareDecimals } from '@coffer/contract/rules';

/**
 * Amount entry on the numeric keypad and its checks before anything is sent. Everything
 * works on the typed string; nothing passes through a float. The rules themselves (grammar,
 * NUMERIC(38,18) limits, zero, the currency's decimals and limits) are the contract's
 * checkAmount, the very function the server answers 3002 with.
 */

/**
 * The text after one keypad press, or the same text when the key would make it malformed:
 * one point at most, no leading zeros, never more decimals than the currency has nor more
 * integer digits than the ledger stores.
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
  if (int.length >= AMOUNT_MAX_INTEGER_DIGITS) return current;
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

const ERROR_OF: Record<AmountProblem, AmountError> = {
  shape: 'shape',
  zero: 'zero',
  decimals: 'decimals',
  too_large: 'tooLarge',
  below_min: 'belowMin',
  above_max: 'aboveMax',
};

/**
 * Validates a typed amount the way the server will (3002 rules, then 3001), and returns
 * its canonical form ("01.50" -> "1.5") for the request body. A point typed last ("1.")
 * is an amount still being typed and reads as the digits before it.
 */
export function checkAmountInput(raw: string, rules: AmountRules): AmountCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, error: 'required' };
  const typed = /^\d+\.$/.test(text) ? text.slice(0, -1) : text;
  const res = checkAmount(typed, { decimals: rules.decimals, transferMin: rules.min, transferMax: rules.max });
  if (!res.ok) return { ok: false, error: ERROR_OF[res.problem] };
  if (rules.available != null && compareDecimals(res.value, rules.available) > 0) return { ok: false, error: 'balance' };
  return { ok: true, value: res.value };
}
