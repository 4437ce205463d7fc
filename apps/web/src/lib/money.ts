/**
 * Money arrives from the API as decimal strings ("1234.5"). These helpers work on the
 * digits directly (and BigInt where arithmetic is needed) so no amount ever passes
 * through a binary float.
 */

const DECIMAL_RE = /^(-?)(\d+)(?:\.(\d+))?$/;

export interface FormatOptions {
  /** Exact number of decimals to show: extra digits are cut (never rounded up), missing ones padded. */
  decimals?: number;
  /** Thousands separators in the integer part (default true). */
  group?: boolean;
  /** Shown for values that are not decimal strings. */
  placeholder?: string;
}

interface Parsed {
  negative: boolean;
  int: string;
  frac: string;
}

function parse(value: string): Parsed | null {
  const match = DECIMAL_RE.exec(value.trim());
  if (!match) return null;
  const int = match[2]!.replace(/^0+(?=\d)/, '');
  return { negative: match[1] === '-', int, frac: match[3] ?? '' };
}

function groupThousands(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Formats a decimal string for display, e.g. formatAmount("1234.5678", {decimals: 2}) -> "1,234.56". */
export function formatAmount(value: string | null | undefined, options: FormatOptions = {}): string {
  const { decimals, group = true, placeholder = '--' } = options;
  if (value == null) return placeholder;
  const parsed = parse(value);
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

/** The inverse of toUnits, without trailing zeros ("1.50" -> "1.5"). */
export function fromUnits(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

/** -1, 0 or 1, comparing two decimal strings exactly. */
export function compareAmounts(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(parse(a)?.frac.length ?? 0, parse(b)?.frac.length ?? 0);
  const x = toUnits(a, scale);
  const y = toUnits(b, scale);
  return x === y ? 0 : x < y ? -1 : 1;
}
