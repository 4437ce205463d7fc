import { compareDecimals, formatAmount, fromUnits, parseDecimal as parse } from '@coffer/contract/rules';

/** The display rule both apps share (the phone app and the console): the contract's. */
export { formatAmount };
export type { FormatOptions } from '@coffer/contract/rules';

/**
 * Money arrives from the API as decimal strings ("1234.5"). These helpers work on the
 * digits directly (and BigInt where arithmetic is needed) so no amount ever passes
 * through a binary float.
 */

/** Converts a decimal string to integer units of 10^-decimals; throws when it does not fit exactly. */
export function toUnits(value: string, decimals: number): bigint {
  const parsed = parse(value);
  if (!parsed) throw new Error(`not a decimal string: ${value}`);
  const frac = parsed.frac.replace(/0+$/, '');
  if (frac.length > decimals) {
    throw new Error(`more than ${decimals} decimals: ${value}`);
  }
  const units = BigInt(parsed.int + frac.padEnd(decimals, '0'));
  return parsed.negative ? -units : units;
}

/** The inverse of toUnits, without trailing zeros ("1.50" -> "1.5"): the contract's. */
export { fromUnits };

/** -1, 0 or 1, comparing two decimal strings exactly: the contract's. */
export const compareAmounts = compareDecimals;

/** The number of decimals a decimal string carries as written ("1.50" -> 2). */
function scaleOf(value: string): number {
  return parse(value)?.frac.length ?? 0;
}

/** Exact sum of decimal strings, in shortest form. */
export function addAmounts(...values: string[]): string {
  const scale = Math.max(0, ...values.map(scaleOf));
  const sum = values.reduce((acc, value) => acc + toUnits(value, scale), 0n);
  return fromUnits(sum, scale);
}

/** Exact a - b, in shortest form (may be negative). */
export function subtractAmounts(a: string, b: string): string {
  const scale = Math.max(scaleOf(a), scaleOf(b));
  return fromUnits(toUnits(a, scale) - toUnits(b, scale), scale);
}

/** a * b, cut (toward zero, never rounded up) to `decimals`. */
export function multiplyAmounts(a: string, b: string, decimals: number): string {
  const sa = scaleOf(a);
  const sb = scaleOf(b);
  const product = toUnits(a, sa) * toUnits(b, sb);
  const shift = sa + sb - decimals;
  const units = shift >= 0 ? product / 10n ** BigInt(shift) : product * 10n ** BigInt(-shift);
  return fromUnits(units, decimals);
}

/** a / b, cut toward zero to `decimals`; throws on division by zero. */
export function divideAmounts(a: string, b: string, decimals: number): string {
  const sa = scaleOf(a);
  const sb = scaleOf(b);
  const divisor = toUnits(b, sb);
  if (divisor === 0n) throw new RangeError('division by zero');
  // a/b = (A/10^sa) / (B/10^sb); scaled by 10^decimals: A * 10^(sb + decimals) / (B * 10^sa).
  const numerator = toUnits(a, sa) * 10n ** BigInt(sb + decimals);
  const denominator = divisor * 10n ** BigInt(sa);
  return fromUnits(numerator / denominator, decimals);
}

/** True for a decimal string equal to zero ("0", "0.000"). */
export function isZeroAmount(value: string): boolean {
  const parsed = parse(value);
  return parsed !== null && /^0*$/.test(parsed.int) && /^0*$/.test(parsed.frac);
}

/**
 * A short form for lists and rates: at most `maxDecimals` decimals (cut toward zero, never
 * rounded up), trailing zeros dropped, thousands grouped. Details show the exact amount.
 */
export function formatCompact(value: string | null | undefined, maxDecimals = 8): string {
  if (value == null || parse(value) === null) return '--';
  return formatAmount(multiplyAmounts(value, '1', maxDecimals));
}

/** A rate for display: at most 8 decimals (cut), trailing zeros dropped, thousands grouped. */
export function formatRate(rate: string | null | undefined): string {
  return formatCompact(rate, 8);
}
