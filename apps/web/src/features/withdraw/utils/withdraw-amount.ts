import type { WithdrawLimits } from '@coffer/contract/chain';
import { type AmountError, checkAmountInput } from '../../../lib/amount-input';
import { addAmounts, compareAmounts, multiplyAmounts, subtractAmounts } from '../../../lib/money';

/**
 * The money of a withdrawal, all on decimal strings. The typed amount is what the address
 * receives; the fee comes on top, and amount + fee is held from the available balance
 * (contract withdrawRecord: total = amount + fee).
 */

/** "All": what can be withdrawn so that amount + fee fits the available balance; "0" when nothing can. */
export function allAmount(available: string, fee: string, decimals: number): string {
  const rest = subtractAmounts(available, fee);
  if (compareAmounts(rest, '0') <= 0) return '0';
  // Cut, never rounded up: the result must still fit.
  return multiplyAmounts(rest, '1', decimals);
}

/** What the address receives for a typed amount. */
export function amountReceived(amount: string): string {
  return amount;
}

/** What leaves the available balance: amount + fee. */
export function withdrawTotal(amount: string, fee: string): string {
  return addAmounts(amount, fee);
}

export type WithdrawAmountError = AmountError | 'dailyLimit';

export type WithdrawAmountCheck = { ok: true; value: string; total: string } | { ok: false; error: WithdrawAmountError };

/**
 * The amount rules the server applies (3002 range and decimals, 3001 balance with the fee,
 * 3009 daily limit), checked before the request, balance before the maximum. Without limits only the shape is checked.
 */
export function checkWithdrawAmount(raw: string, decimals: number, limits: WithdrawLimits | undefined): WithdrawAmountCheck {
  // Shape, decimals and minimum first; the maximum only after the balance: an amount the
  // user cannot afford is told "insufficient balance", not "above the maximum".
  const shaped = checkAmountInput(raw, { decimals, min: limits?.min });
  if (!shaped.ok) return shaped;
  if (!limits) return { ...shaped, total: shaped.value };
  const total = withdrawTotal(shaped.value, limits.fee);
  if (compareAmounts(total, limits.available) > 0) return { ok: false, error: 'balance' };
  const check = checkAmountInput(raw, { decimals, min: limits.min, max: limits.max });
  if (!check.ok) return check;
  if (compareAmounts(check.value, limits.dailyRemaining) > 0) return { ok: false, error: 'dailyLimit' };
  return { ok: true, value: check.value, total };
}
