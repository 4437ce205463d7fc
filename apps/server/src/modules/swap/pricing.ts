import { AMOUNT_MAX_INTEGER_DIGITS, ErrorCode } from '@coffer/contract';
import { checkAmount as checkAmountDigits } from '@coffer/contract/rules';
import DecimalJs from 'decimal.js';
import { BizError } from '../../core/errors.ts';
import type { PricedPair } from './rates/source.ts';

/** Exact decimal arithmetic with room for 38-digit amounts times 18-decimal rates. */
export const Decimal = DecimalJs.clone({ precision: 120, rounding: DecimalJs.ROUND_DOWN, toExpNeg: -100, toExpPos: 100 });
export type Decimal = InstanceType<typeof Decimal>;

/** Rates carry 18 decimals, like every NUMERIC(38,18) column. */
export const RATE_DECIMALS = 18;
const BPS = 10_000;

export interface SwapPrice {
  fromAmount: string;
  toAmount: string;
  fee: string;
  feeCurrencyId: number;
  /** After spread, before fee: what `to` per `from` the user is charged at. */
  rate: string;
  midRate: string;
  spreadBps: number;
  feeBps: number;
}

/** The plain decimal string of a value: no exponent, no trailing zeros ("1.5", "0"). */
export function plain(value: Decimal | string): string {
  return new Decimal(value).toFixed();
}

/** The user's rate: mid × (1 − spread), truncated to 18 decimals (toward the house). */
export function rateAfterSpread(midRate: string, spreadBps: number): string {
  return new Decimal(midRate)
    .mul(BPS - spreadBps)
    .div(BPS)
    .toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN)
    .toFixed();
}

/** What one unit of `from` yields after spread and fee, for display. */
export function effectiveRate(pair: PricedPair): string {
  return new Decimal(rateAfterSpread(pair.midRate, pair.spreadBps))
    .mul(BPS - pair.feeBps)
    .div(BPS)
    .toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_DOWN)
    .toFixed();
}

/** Checks an amount to sell against the currency's decimals and the pair's range (3002). */
export function checkAmount(pair: PricedPair, amount: string): Decimal {
  // The contract's one amount rule: grammar, digit limits, the currency's decimals, above zero.
  const checked = checkAmountDigits(amount, { decimals: pair.fromDecimals });
  if (!checked.ok && checked.problem === 'decimals') {
    throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, `amount: at most ${pair.fromDecimals} decimals for ${pair.fromCode}`);
  }
  if (!checked.ok) throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, 'amount');
  const value = new Decimal(checked.value);
  if (pair.minAmount !== null && value.lt(pair.minAmount)) {
    throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, `amount: at least ${plain(pair.minAmount)} ${pair.fromCode}`);
  }
  if (pair.maxAmount !== null && value.gt(pair.maxAmount)) {
    throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, `amount: at most ${plain(pair.maxAmount)} ${pair.fromCode}`);
  }
  return value;
}

/**
 * Prices selling `amount` of `from`. Results carry each currency's display precision
 * (fromPlaces, toPlaces; docs/decisions/053-one-amount-one-reference.md) and every rounding
 * favours the house: the fee rounds up, what the user receives rounds down.
 *  - fee in `to`:   gross = amount × rate; fee = ⌈gross × feeBps⌉; receive = ⌊gross⌋ − fee
 *  - fee in `from`: fee = ⌈amount × feeBps⌉; receive = ⌊(amount − fee) × rate⌋
 */
export function priceSwap(pair: PricedPair, amount: string, rate = rateAfterSpread(pair.midRate, pair.spreadBps)): SwapPrice {
  const sold = checkAmount(pair, amount);
  const r = new Decimal(rate);
  let fee: Decimal;
  let receive: Decimal;
  if (pair.feeCurrency === 'to') {
    const gross = sold.mul(r);
    fee = gross.mul(pair.feeBps).div(BPS).toDecimalPlaces(pair.toPlaces, Decimal.ROUND_UP);
    receive = gross.toDecimalPlaces(pair.toPlaces, Decimal.ROUND_DOWN).minus(fee);
  } else {
    fee = sold.mul(pair.feeBps).div(BPS).toDecimalPlaces(pair.fromPlaces, Decimal.ROUND_UP);
    receive = sold.minus(fee).mul(r).toDecimalPlaces(pair.toPlaces, Decimal.ROUND_DOWN);
  }
  if (receive.lte(0)) {
    throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, 'amount: too small to receive anything');
  }
  if (receive.plus(fee).trunc().toFixed().length > AMOUNT_MAX_INTEGER_DIGITS) {
    throw new BizError(ErrorCode.AMOUNT_OUT_OF_RANGE, 'amount: too large');
  }
  return {
    fromAmount: plain(sold),
    toAmount: plain(receive),
    fee: plain(fee),
    feeCurrencyId: pair.feeCurrency === 'to' ? pair.toCurrencyId : pair.fromCurrencyId,
    rate: plain(r),
    midRate: plain(pair.midRate),
    spreadBps: pair.spreadBps,
    feeBps: pair.feeBps,
  };
}

/** How far a rate moved from a quoted one, in basis points of the quoted rate. */
export function movedBps(quoted: string, current: string): Decimal {
  const q = new Decimal(quoted);
  return new Decimal(current).minus(q).abs().mul(BPS).div(q);
}
