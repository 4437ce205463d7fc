import { ErrorCode } from '@coffer/contract/errors';
import { AMOUNT_RE, canonicalAmount, fromUnits, toUnits } from '@coffer/contract/rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBizError } from '../../core/errors.ts';
import { priceSwap, RATE_DECIMALS, rateAfterSpread } from './pricing.ts';
import type { PricedPair } from './rates/source.ts';

// Rounding of swap prices (decision 023), checked against exact rational arithmetic in
// BigInt, independently of decimal.js: every rounding favours the house, by less than one
// unit of the currency it rounds in, and every answer is exact at its currency's decimals.
// (ledger/amounts.property.test.ts checks that the web's estimate equals priceSwap.)

const RUNS = 500;
const BPS = 10_000n;
const BPS_MAX = 5000; // SWAP_BPS_MAX in contract/admin.ts

const pow10 = (n: number) => 10n ** BigInt(n);

/** A positive decimal with exactly `scale` decimals at most, as integer units and its string. */
const decimal = (maxUnits: bigint, scale: number) => fc.bigInt({ min: 1n, max: maxUnits }).map((units) => fromUnits(units, scale));

const pricing = fc
  .record({
    fromDecimals: fc.constantFrom(0, 2, 6, 8, 18),
    toDecimals: fc.constantFrom(0, 2, 6, 8, 18),
    rateScale: fc.integer({ min: 0, max: 18 }),
    spreadBps: fc.integer({ min: 0, max: BPS_MAX }),
    feeBps: fc.integer({ min: 0, max: BPS_MAX }),
    feeCurrency: fc.constantFrom('from' as const, 'to' as const),
  })
  .chain((p) =>
    fc.record({
      p: fc.constant(p),
      // Rates from 10^-18 to 10^9 and amounts up to 10^15 units: tiny, ordinary and too large results.
      midRate: decimal(10n ** 27n, p.rateScale).filter((r) => toUnits(r, RATE_DECIMALS) > 0n),
      amount: decimal(10n ** 15n, p.fromDecimals),
    }),
  );

function pairOf(
  p: { fromDecimals: number; toDecimals: number; spreadBps: number; feeBps: number; feeCurrency: 'from' | 'to' },
  midRate: string,
): PricedPair {
  return {
    id: 1,
    fromCurrencyId: 1,
    fromCode: 'AAA',
    fromDecimals: p.fromDecimals,
    fromPlaces: p.fromDecimals,
    toCurrencyId: 2,
    toCode: 'BBB',
    toDecimals: p.toDecimals,
    toPlaces: p.toDecimals,
    midRate,
    spreadBps: p.spreadBps,
    feeBps: p.feeBps,
    feeCurrency: p.feeCurrency,
    minAmount: null,
    maxAmount: null,
    updatedAt: new Date(0),
  };
}

/** Integer units of 10^-scale of a value that must be exact at `scale` decimals (nothing cut). */
function exactUnits(value: string, scale: number): bigint {
  const units = toUnits(value, scale);
  expect(fromUnits(units, scale), `${value} at ${scale} decimals`).toBe(canonicalAmount(value));
  return units;
}

describe('swap pricing rounding (fast-check)', () => {
  it('the rate after spread is the mid rate less the spread, cut toward the house by under 10^-18', () => {
    fc.assert(
      fc.property(pricing, ({ p, midRate }) => {
        const rate = rateAfterSpread(midRate, p.spreadBps);
        expect(rate).toMatch(AMOUNT_RE);
        const R = exactUnits(rate, RATE_DECIMALS);
        // exact = mid × (1 − spread) at 18 decimals, times 10^4: R·10^4 ≤ exact < (R + 1)·10^4.
        const exact = toUnits(midRate, RATE_DECIMALS) * (BPS - BigInt(p.spreadBps));
        expect(R * BPS <= exact).toBe(true);
        expect(exact < (R + 1n) * BPS).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('never gives the user more than the exact value less the fee, and takes at most one unit per rounding', () => {
    fc.assert(
      fc.property(pricing, ({ p, midRate, amount }) => {
        const pair = pairOf(p, midRate);
        let price: ReturnType<typeof priceSwap>;
        try {
          price = priceSwap(pair, amount);
        } catch (error) {
          // Refused only as 3002: nothing to receive, or beyond NUMERIC(38,18).
          expect(isBizError(error) && error.bizCode === ErrorCode.AMOUNT_OUT_OF_RANGE, String(error)).toBe(true);
          return;
        }
        const { fromDecimals: fd, toDecimals: td } = p;
        const bps = BigInt(p.feeBps);
        const rate = rateAfterSpread(midRate, p.spreadBps);
        expect(price.rate).toBe(rate);
        expect(price.fromAmount).toBe(amount);
        for (const value of [price.toAmount, price.fee]) expect(value).toMatch(AMOUNT_RE);

        // a = A / 10^fd (amounts are generated at the currency's decimals), r = R / 10^18.
        const A = exactUnits(amount, fd);
        const R = exactUnits(rate, RATE_DECIMALS);
        const T = exactUnits(price.toAmount, td); // what the user receives, exact at td decimals
        expect(T > 0n).toBe(true);
        const rs = RATE_DECIMALS;

        // Whatever the policy: T ≤ a × r × (1 − fee) exactly. Scaled by 10^(fd + rs + 4):
        expect(T * pow10(fd + rs) * BPS <= A * R * (BPS - bps) * pow10(td)).toBe(true);

        if (p.feeCurrency === 'to') {
          expect(price.feeCurrencyId).toBe(pair.toCurrencyId);
          const F = exactUnits(price.fee, td);
          const gross = A * R * pow10(td); // a × r in units of 10^-(fd + rs + td)
          const unit = pow10(fd + rs);
          // receive + fee = ⌊a × r⌋ at td decimals: not above the gross, less than one unit below.
          expect((T + F) * unit <= gross).toBe(true);
          expect(gross - (T + F) * unit < unit).toBe(true);
          // fee = ⌈a × r × bps⌉ at td decimals: never under the rate, over it by less than one unit.
          expect(F * unit * BPS >= gross * bps).toBe(true);
          expect(F * unit * BPS - gross * bps < unit * BPS).toBe(true);
        } else {
          expect(price.feeCurrencyId).toBe(pair.fromCurrencyId);
          const F = exactUnits(price.fee, fd);
          // fee = ⌈a × bps⌉ at fd decimals.
          expect(F * BPS >= A * bps).toBe(true);
          expect(F * BPS - A * bps < BPS).toBe(true);
          // receive = ⌊(a − fee) × r⌋ at td decimals.
          const net = (A - F) * R * pow10(td); // units of 10^-(fd + rs + td)
          const unit = pow10(fd + rs);
          expect(T * unit <= net).toBe(true);
          expect(net - T * unit < unit).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('selling more never yields less, but for at most one unit where the rounded-up fee steps', () => {
    fc.assert(
      fc.property(pricing, fc.bigInt({ min: 1n, max: 10n ** 6n }), ({ p, midRate, amount }, more) => {
        const pair = pairOf(p, midRate);
        const bigger = fromUnits(toUnits(amount, p.fromDecimals) + more, p.fromDecimals);
        let small: bigint;
        let large: bigint;
        try {
          small = toUnits(priceSwap(pair, amount).toAmount, p.toDecimals);
          large = toUnits(priceSwap(pair, bigger).toAmount, p.toDecimals);
        } catch {
          return; // a refusal (nothing to receive, too large) is covered above
        }
        // Fee in `from`: a − ⌈a × bps⌉ never falls as a grows, so neither does what is received.
        // Fee in `to`: ⌊gross⌋ − ⌈gross × bps⌉ can fall by one unit where the fee steps up first.
        const slack = p.feeCurrency === 'to' ? 1n : 0n;
        expect(large + slack >= small, `${amount} → ${small}, ${bigger} → ${large}`).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('the one-unit dip is real: with the fee in `to`, 10.001 sells for less than 10 where the fee steps up', () => {
    const pair = pairOf({ fromDecimals: 3, toDecimals: 2, spreadBps: 0, feeBps: 10, feeCurrency: 'to' }, '1');
    expect(priceSwap(pair, '10')).toMatchObject({ toAmount: '9.99', fee: '0.01' });
    expect(priceSwap(pair, '10.001')).toMatchObject({ toAmount: '9.98', fee: '0.02' });
  });
});
