/**
 * The amount rules the server and both apps share, with no dependency (no zod), so the
 * phone app's first screen can import it for a few hundred bytes. Amounts are decimal
 * strings end to end; arithmetic is BigInt on minor units, never a binary float.
 */

/**
 * Amounts are stored as NUMERIC(38,18): at most 20 digits before the point and 18 after.
 * Every limit on an amount's size (schemas, the keypad, checkAmount, pricing) reads these.
 */
export const AMOUNT_MAX_INTEGER_DIGITS = 20;
export const AMOUNT_MAX_DECIMALS = 18;

/**
 * The one amount grammar: a plain unsigned decimal string ("12.5", "0", "012.50"). No sign,
 * exponent, grouping or bare point ("1.", ".5"). Whether zero is allowed is not grammar: a
 * transfer or swap amount must be positive (isPositiveAmount), a fee, balance or limit may be 0.
 */
export const AMOUNT_RE = /^\d+(?:\.\d+)?$/;

/** The signed form, as the ledger answers postings and balances ("-12.5"). */
export const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

/** True for an amount in the grammar that fits NUMERIC(38,18) (leading and trailing zeros do not count). */
export function isAmountWithinLimits(value: string): boolean {
  const parts = parseDecimal(value);
  if (!parts || parts.negative) return false;
  return parts.int.length <= AMOUNT_MAX_INTEGER_DIGITS && parts.frac.replace(/0+$/, '').length <= AMOUNT_MAX_DECIMALS;
}

/** True for a decimal string above zero ("0.001"); false for zero ("0.000"), negatives and non-decimals. */
export function isPositiveAmount(value: string): boolean {
  const parts = parseDecimal(value);
  return parts !== null && !parts.negative && /[1-9]/.test(parts.int + parts.frac);
}

export type AmountProblem = 'zero' | 'decimals' | 'too_large' | 'below_min' | 'above_max' | 'shape';

/**
 * Checks an amount string against a currency without floats; the server (3002, or 1001 for
 * 'shape') and the web app's amount fields share it. Returns the canonical form ("1.50" -> "1.5")
 * or the problem. Trailing zeros do not count as decimals: "1.50" is exact for a 1-decimal
 * currency, "1.05" is not.
 */
export function checkAmount(
  raw: string,
  cur: { decimals: number; transferMin?: string | null; transferMax?: string | null },
): { ok: true; value: string; units: bigint } | { ok: false; problem: AmountProblem } {
  const text = raw.trim();
  if (!AMOUNT_RE.test(text)) return { ok: false, problem: 'shape' };
  const parts = parseDecimal(text)!;
  const frac = parts.frac.replace(/0+$/, '');
  if (parts.int.length > AMOUNT_MAX_INTEGER_DIGITS) return { ok: false, problem: 'too_large' };
  if (frac.length > cur.decimals) return { ok: false, problem: 'decimals' };
  const units = BigInt(parts.int + frac.padEnd(cur.decimals, '0'));
  if (units === 0n) return { ok: false, problem: 'zero' };
  // Limits are cut to the currency's decimals (an operator's "0.0015" on a 3-decimal currency is 0.001).
  if (cur.transferMin && units < toUnits(cur.transferMin, cur.decimals)) return { ok: false, problem: 'below_min' };
  if (cur.transferMax && units > toUnits(cur.transferMax, cur.decimals)) return { ok: false, problem: 'above_max' };
  return { ok: true, value: frac ? `${parts.int}.${frac}` : parts.int, units };
}

/** -1, 0 or 1, comparing two decimal strings exactly (any number of decimals). */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const x = scaled(a);
  const y = scaled(b);
  const scale = x.scale > y.scale ? x.scale : y.scale;
  const u = x.units * 10n ** BigInt(scale - x.scale);
  const v = y.units * 10n ** BigInt(scale - y.scale);
  return u === v ? 0 : u < v ? -1 : 1;
}

/**
 * Decimals shown for a currency in lists and summaries (home, records, quotes, rates).
 * Details show the exact value with a copy action. Unknown codes show at most
 * DEFAULT_DISPLAY_DECIMALS; never more than the currency itself carries.
 */
export const DISPLAY_DECIMALS: Readonly<Record<string, number>> = { BTC: 8, LTC: 6, ETH: 6, USDT: 2, USDC: 2 };
export const DEFAULT_DISPLAY_DECIMALS = 8;
const BPS = 10_000n;

export type Rounding = 'down' | 'up';

/** The server's answer (`Currency.displayDecimals`) when the caller has it, else the table above. */
export function displayDecimals(currency: { code: string; decimals: number; displayDecimals?: number }): number {
  const wanted = currency.displayDecimals ?? DISPLAY_DECIMALS[currency.code] ?? DEFAULT_DISPLAY_DECIMALS;
  return wanted < currency.decimals ? wanted : currency.decimals;
}

interface Parts {
  negative: boolean;
  int: string;
  frac: string;
}

/** The parts of a plain decimal string ("-012.50" → -, "12", "50"), or null for anything else. */
export function parseDecimal(value: string): Parts | null {
  const match = DECIMAL_RE.exec(value.trim());
  if (!match) return null;
  return { negative: match[1] === '-', int: match[2]!.replace(/^0+(?=\d)/, ''), frac: match[3] ?? '' };
}

/** A decimal value as integer units of 10^-scale with its scale (exact, any number of decimals). */
interface Scaled {
  units: bigint;
  scale: number;
}

function scaled(value: string): Scaled {
  const parts = parseDecimal(value);
  if (!parts) throw new RangeError(`not a decimal string: ${value}`);
  const units = BigInt(parts.int + parts.frac);
  return { units: parts.negative ? -units : units, scale: parts.frac.length };
}

/** units / 10^shift, rounded toward zero ('down') or away from zero ('up'). */
function shiftDown(units: bigint, shift: number, rounding: Rounding): bigint {
  if (shift <= 0) return units * 10n ** BigInt(-shift);
  const divisor = 10n ** BigInt(shift);
  const quotient = units / divisor;
  if (rounding === 'down' || quotient * divisor === units) return quotient;
  return units < 0n ? quotient - 1n : quotient + 1n;
}

/** The shortest exact form of integer units of 10^-decimals ("150", 2 → "1.5"). */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const out = frac ? `${int}.${frac}` : int;
  return negative && out !== '0' ? `-${out}` : out;
}

/** Integer units of 10^-decimals, rounded toward zero or away from it beyond `decimals`. */
export function toUnits(value: string, decimals: number, rounding: Rounding = 'down'): bigint {
  const { units, scale } = scaled(value);
  return shiftDown(units, scale - decimals, rounding);
}

/** The value at most `decimals` decimals, cut ('down', toward zero) or rounded up (away from zero). */
export function roundAmount(value: string, decimals: number, rounding: Rounding = 'down'): string {
  return fromUnits(toUnits(value, decimals, rounding), decimals);
}

/** The shortest exact form ("010.500" → "10.5", "-0.0" → "0"); null for a non-decimal. */
export function canonicalAmount(value: string): string | null {
  const parts = parseDecimal(value);
  if (!parts) return null;
  const frac = parts.frac.replace(/0+$/, '');
  const out = frac ? `${parts.int}.${frac}` : parts.int;
  return parts.negative && out !== '0' ? `-${out}` : out;
}

export interface Separators {
  group: string;
  decimal: string;
}

export const PLAIN_SEPARATORS: Separators = { group: ',', decimal: '.' };

/**
 * A decimal string for display with at most `decimals` decimals (rounded as asked, toward
 * the house: what the user gets rounds down, what they pay rounds up), trailing zeros
 * trimmed to `minDecimals`, the integer part grouped in threes.
 */
export function formatDecimal(
  value: string,
  options: { decimals?: number; rounding?: Rounding; minDecimals?: number; separators?: Separators } = {},
): string | null {
  const exact = options.decimals === undefined ? canonicalAmount(value) : canonicalRounded(value, options);
  if (exact === null) return null;
  const { group, decimal } = options.separators ?? PLAIN_SEPARATORS;
  const parts = parseDecimal(exact)!;
  const min = options.minDecimals ?? 0;
  const frac = parts.frac.length < min ? parts.frac.padEnd(min, '0') : parts.frac;
  const int = parts.int.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${parts.negative ? '-' : ''}${int}${frac ? `${decimal}${frac}` : ''}`;
}

function canonicalRounded(value: string, options: { decimals?: number; rounding?: Rounding }): string | null {
  if (!parseDecimal(value)) return null;
  return roundAmount(value, options.decimals!, options.rounding);
}

/** Inverse of a rate (units of `from` per one `to`), rounded as asked to `decimals`. */
export function invertRate(rate: string, decimals: number, rounding: Rounding): string {
  const { units, scale } = scaled(rate);
  if (units === 0n) throw new RangeError('division by zero');
  // 1 / (units / 10^scale) = 10^scale / units; scaled by 10^decimals.
  const numerator = 10n ** BigInt(scale + decimals);
  const quotient = numerator / units;
  const exact = quotient * units === numerator;
  return fromUnits(rounding === 'up' && !exact ? quotient + 1n : quotient, decimals);
}

export interface SwapTerms {
  /** Units of `to` per unit of `from`, after the spread, before the fee (SwapPair.rate). */
  rate: string;
  feeBps: number;
  /** True when the fee is taken from what is bought (SwapPair.feeCurrencyId === toCurrencyId). */
  feeInTo: boolean;
  /** The places a fee in `from` rounds to: the currency's display precision (displayDecimals). */
  fromDecimals: number;
  /** The places what is received (and a fee in `to`) rounds to: the currency's display precision. */
  toDecimals: number;
}

/**
 * What selling `amount` yields, exactly as the server prices it (apps/server/src/modules/swap/
 * pricing.ts priceSwap), so the estimate before a quote equals the quote at the same rate.
 * Results carry each currency's display precision and every rounding favours the house: the
 * fee rounds up, what is received rounds down (docs/decisions/053-one-amount-one-reference.md).
 *  - fee in `to`:   gross = amount × rate; fee = ⌈gross × feeBps⌉; receive = ⌊gross⌋ − fee
 *  - fee in `from`: fee = ⌈amount × feeBps⌉; receive = ⌊(amount − fee) × rate⌋
 */
export function estimateSwap(amount: string, terms: SwapTerms): { receive: string; fee: string } {
  const a = scaled(amount);
  const r = scaled(terms.rate);
  const bps = BigInt(terms.feeBps);
  if (terms.feeInTo) {
    const gross = a.units * r.units; // scale a.scale + r.scale
    const grossScale = a.scale + r.scale;
    const fee = ceilDiv(gross * bps * 10n ** BigInt(terms.toDecimals), BPS * 10n ** BigInt(grossScale));
    const receive = shiftDown(gross, grossScale - terms.toDecimals, 'down') - fee;
    return { receive: fromUnits(receive, terms.toDecimals), fee: fromUnits(fee, terms.toDecimals) };
  }
  const fee = ceilDiv(a.units * bps * 10n ** BigInt(terms.fromDecimals), BPS * 10n ** BigInt(a.scale));
  // amount − fee exactly, at the finer of the amount's scale and the fee's.
  const scale = a.scale > terms.fromDecimals ? a.scale : terms.fromDecimals;
  const net = a.units * 10n ** BigInt(scale - a.scale) - fee * 10n ** BigInt(scale - terms.fromDecimals);
  const receive = shiftDown(net * r.units, scale + r.scale - terms.toDecimals, 'down');
  return { receive: fromUnits(receive, terms.toDecimals), fee: fromUnits(fee, terms.fromDecimals) };
}

/** ⌈n / d⌉ for n ≥ 0, d > 0. */
function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return q * d === n ? q : q + 1n;
}

export interface FormatOptions {
  /** Exact number of decimals to show: extra digits are cut (never rounded up), missing ones padded. */
  decimals?: number;
  /** Thousands separators in the integer part (default true). */
  group?: boolean;
  /** Shown for values that are not decimal strings. */
  placeholder?: string;
}

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats a decimal string for display, e.g. formatAmount("1234.5678", {decimals: 2}) -> "1,234.56". */
export function formatAmount(value: string | null | undefined, options: FormatOptions = {}): string {
  const { decimals, group = true, placeholder = '--' } = options;
  if (value == null) return placeholder;
  const parsed = parseDecimal(value);
  if (!parsed) return placeholder;
  let frac = parsed.frac;
  if (decimals === undefined) {
    frac = frac.replace(/0+$/, '');
  } else {
    frac = frac.slice(0, decimals).padEnd(decimals, '0');
  }
  const isZero = /^0*$/.test(parsed.int) && /^0*$/.test(frac);
  const sign = parsed.negative && !isZero ? '-' : '';
  const int = group ? groupThousands(parsed.int) : parsed.int;
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}
