import {
  canonicalAmount,
  displayDecimals,
  formatDecimal,
  invertRate,
  type Locale,
  PLAIN_SEPARATORS,
  parseDecimal,
  type Rounding,
  type Separators,
  toUnits,
} from '@coffer/contract/rules';
import { i18n } from './i18n';

/**
 * How amounts read on screen (decision 019): lists and summaries show a currency's display
 * precision (contract DISPLAY_DECIMALS), rounded toward the house; details show the exact
 * value; thousands are grouped as the interface language writes them. Input stays a plain
 * decimal string; nothing here passes through a float.
 */

export interface CurrencyLike {
  code: string;
  decimals: number;
  /** From /api/currency/list; absent where only a code is known (the contract table applies). */
  displayDecimals?: number;
}

/** Rates below this read inverted ("1 ETH ≈ 3,009.03 USDT", not "1 USDT ≈ 0.000332 ETH"). */
const INVERT_BELOW = '0.1';
/** A rate shows at least this many significant digits, whatever the currency's precision. */
const RATE_SIGNIFICANT_DIGITS = 4;
const MAX_RATE_DECIMALS = 18;

/**
 * The marks of the interface's own languages, written out: the first Intl.NumberFormat of a
 * page load costs about 110 ms of main thread on a throttled phone (ICU's locale data), inside
 * the landing page's time to interactive (decision 032). A test holds them equal to Intl's.
 */
export const INTERFACE_SEPARATORS: Readonly<Record<Locale, Separators>> = {
  'zh-CN': PLAIN_SEPARATORS,
  'en-US': PLAIN_SEPARATORS,
};

const separatorCache = new Map<string, Separators>(Object.entries(INTERFACE_SEPARATORS));

/** The group and decimal marks of a locale ("1,234.5" in en-US and zh-CN). */
export function localeSeparators(locale: string = i18n.language || 'zh-CN'): Separators {
  let found = separatorCache.get(locale);
  if (!found) {
    found = { ...PLAIN_SEPARATORS };
    try {
      // A sample to learn the marks from, not an amount.
      for (const part of new Intl.NumberFormat(locale).formatToParts(1234.5)) {
        if (part.type === 'group') found.group = part.value;
        if (part.type === 'decimal') found.decimal = part.value;
      }
    } catch {
      // Unknown locale: plain marks.
    }
    separatorCache.set(locale, found);
  }
  return found;
}

/**
 * A list or summary amount: at most the currency's display decimals, rounded `down`
 * (what the user has or gets) or `up` (what they pay: fees), trailing zeros trimmed.
 * Unknown currency: the exact value, grouped.
 */
export function formatMoney(
  value: string | null | undefined,
  currency: CurrencyLike | string | undefined,
  rounding: Rounding = 'down',
): string {
  if (value == null) return '--';
  const separators = localeSeparators();
  if (!currency) return formatDecimal(value, { separators }) ?? '--';
  // A bare code (records carry only the code): its display precision, at most the ledger's 18.
  const decimals = displayDecimals(typeof currency === 'string' ? { code: currency, decimals: 18 } : currency);
  return formatDecimal(value, { decimals, rounding, separators }) ?? '--';
}

/**
 * A value in the reference currency (home's total and each asset's worth), read by the same
 * rule as every balance beside it: display decimals, cut, trailing zeros trimmed ("6,982", not
 * "6,982.00" next to "1,000"; docs/decisions/053-one-amount-one-reference.md).
 */
export function formatFiat(value: string | null | undefined, reference: CurrencyLike): string {
  return formatMoney(value, reference);
}

/** A detail amount: every decimal the ledger holds, grouped by locale. */
export function formatExact(value: string | null | undefined): string {
  if (value == null) return '--';
  return formatDecimal(value, { separators: localeSeparators() }) ?? '--';
}

/** True when formatMoney hides decimals of this value (details then offer the exact one). */
export function isRounded(value: string, currency: CurrencyLike): boolean {
  const exact = canonicalAmount(value);
  const parts = exact === null ? null : parseDecimal(exact);
  return parts !== null && parts.frac.length > displayDecimals(currency);
}

function rateDecimals(rate: string, quote: CurrencyLike): number {
  const frac = parseDecimal(rate)?.frac ?? '';
  const int = parseDecimal(rate)?.int ?? '0';
  const leadingZeros = int === '0' ? frac.length - frac.replace(/^0+/, '').length : 0;
  const significant = int === '0' ? leadingZeros + RATE_SIGNIFICANT_DIGITS : 0;
  const shown = displayDecimals(quote);
  const wanted = significant > shown ? significant : shown;
  return wanted > MAX_RATE_DECIMALS ? MAX_RATE_DECIMALS : wanted;
}

function lessThan(a: string, b: string): boolean {
  return toUnits(a, MAX_RATE_DECIMALS) < toUnits(b, MAX_RATE_DECIMALS);
}

/**
 * A swap rate ("to per one from") the way people read prices: the larger unit first.
 * "1 ETH ≈ 3,009.03 USDT" for a USDT → ETH rate of 0.000332333…: the inverse is what the
 * user pays per ETH, rounded up (toward the house); a direct rate rounds down.
 */
export function formatNaturalRate(rate: string | null | undefined, from: CurrencyLike, to: CurrencyLike): string {
  if (rate == null || parseDecimal(rate) === null || /^[0.]*$/.test(rate)) return '--';
  const separators = localeSeparators();
  if (lessThan(rate, INVERT_BELOW)) {
    const decimals = displayDecimals(from);
    const inverse = invertRate(rate, decimals, 'up');
    return `1 ${to.code} ≈ ${formatDecimal(inverse, { decimals, rounding: 'up', separators })} ${from.code}`;
  }
  return `1 ${from.code} ≈ ${formatRateValue(rate, to)} ${to.code}`;
}

/** A rate's number alone ("2,991.00" USDT per BTC), cut to the quote currency's precision or 4 significant digits. */
export function formatRateValue(rate: string | null | undefined, to: CurrencyLike): string {
  if (rate == null || parseDecimal(rate) === null) return '--';
  const decimals = rateDecimals(rate, to);
  const minDecimals = decimals < 2 ? decimals : 2;
  return formatDecimal(rate, { decimals, rounding: 'down', minDecimals, separators: localeSeparators() }) ?? '--';
}
