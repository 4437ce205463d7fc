import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The phone app's own amount code, imported as the browser runs it: the property is that
// the client and the server agree, so both sides are exercised here on the same inputs.
import { displayDecimals, formatDecimal, roundAmount } from '@coffer/contract/amount-rules';
import { checkAmountInput } from '../../../web/src/lib/amount-input.ts';
import { compareAmounts, formatAmount as webFormat, toUnits as webToUnits } from '../../../web/src/lib/money.ts';
import { swapEstimate } from '../../../web/src/features/swap/utils/estimate.ts';
import { isBizError } from '../core/errors.ts';
import { Decimal, priceSwap, rateAfterSpread } from '../modules/swap/pricing.ts';
import type { PricedPair } from '../modules/swap/rates/source.ts';
import { formatAmount, parseAmount } from './amounts.ts';

/** Every currency the ledger seeds, plus the extremes a currency may have. */
const CURRENCY_DECIMALS = [0, 2, 6, 8, 18];
const RUNS = 400;

const digits = (min: number, max: number) =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** Decimal strings as a user may type them: leading zeros, trailing zeros, up to 22 digits a side. */
const typed = fc
  .tuple(digits(1, 22), fc.option(digits(1, 22), { nil: undefined }))
  .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`));

/** Stored NUMERIC(38,18) values within a currency's decimals, as PostgreSQL prints them. */
const stored = (decimals: number) =>
  fc.tuple(fc.boolean(), digits(1, 20), digits(0, decimals)).map(([neg, int, frac]) => `${neg ? '-' : ''}${int}.${frac.padEnd(18, '0')}`);

describe('client and server amount rules agree (fast-check)', () => {
  it.each(CURRENCY_DECIMALS)('parse the same typed strings the same way (%i decimals)', (decimals) => {
    fc.assert(
      fc.property(typed, (raw) => {
        const client = checkAmountInput(raw, { decimals });
        let server: string | 'shape' | 'range';
        try {
          server = parseAmount(raw, { decimals }, { limits: false });
        } catch (error) {
          if (!isBizError(error)) throw error;
          server = error.bizCode === 1001 ? 'shape' : 'range';
        }
        if (client.ok) {
          expect(server).toBe(client.value);
          // What the client sends is what the server stores.
          expect(parseAmount(client.value, { decimals }, { limits: false })).toBe(client.value);
        } else expect(server).toBe(client.error === 'shape' ? 'shape' : 'range');
      }),
      { numRuns: RUNS },
    );
  });

  it.each(CURRENCY_DECIMALS)('format stored values to the same exact string (%i decimals)', (decimals) => {
    fc.assert(
      fc.property(stored(decimals), (value) => {
        const exact = formatAmount(value);
        expect(webFormat(value, { group: false })).toBe(exact);
        // What the web shows parses back to the very same units the server holds.
        expect(webToUnits(webFormat(value, { group: false }), decimals) === webToUnits(exact, decimals)).toBe(true);
        expect(compareAmounts(exact, new Decimal(value).toFixed())).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });
});

const positive = (decimals: number) =>
  fc
    .tuple(digits(1, 7), digits(0, decimals))
    .map(([int, frac]) => (frac ? `${int}.${frac}` : int))
    .filter((v) => /[1-9]/.test(v));

const pairs = fc
  .record({
    fromDecimals: fc.constantFrom(...CURRENCY_DECIMALS),
    toDecimals: fc.constantFrom(...CURRENCY_DECIMALS),
    midRate: fc
      .tuple(digits(1, 6), digits(0, 18))
      .map(([i, f]) => (f ? `${i}.${f}` : i))
      .filter((v) => /[1-9]/.test(v)),
    spreadBps: fc.integer({ min: 0, max: 500 }),
    feeBps: fc.integer({ min: 0, max: 500 }),
    feeCurrency: fc.constantFrom('from' as const, 'to' as const),
  })
  .chain((p) =>
    // Results round to each currency's display precision, at most its decimals (migration 0057).
    fc
      .record({ fromPlaces: fc.integer({ min: 0, max: p.fromDecimals }), toPlaces: fc.integer({ min: 0, max: p.toDecimals }) })
      .map((places) => ({ ...p, ...places })),
  );

describe('the swap estimate before a quote is the quote (fast-check)', () => {
  it('equals priceSwap for random pairs, amounts and every currency decimals', () => {
    fc.assert(
      fc.property(
        pairs.chain((p) => fc.tuple(fc.constant(p), positive(p.fromDecimals))),
        ([p, amount]) => {
          const pair: PricedPair = {
            id: 1,
            fromCurrencyId: 1,
            fromCode: 'A',
            toCurrencyId: 2,
            toCode: 'B',
            minAmount: null,
            maxAmount: null,
            updatedAt: new Date(),
            ...p,
          };
          let quoted: { toAmount: string; fee: string } | null;
          try {
            quoted = priceSwap(pair, amount);
          } catch (error) {
            if (!isBizError(error)) throw error;
            quoted = null; // nothing to receive: the page shows no estimate either
          }
          const rate = rateAfterSpread(p.midRate, p.spreadBps);
          const estimate = swapEstimate(
            amount,
            { rate, feeBps: p.feeBps, feeCurrencyId: p.feeCurrency === 'to' ? 2 : 1, toCurrencyId: 2 },
            p.fromPlaces,
            p.toPlaces,
          );
          if (quoted === null) expect(estimate).toBeNull();
          else expect(estimate).toEqual({ receive: quoted.toAmount, fee: quoted.fee });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('display precision rounds as the server would (fast-check)', () => {
  const codes = ['BTC', 'ETH', 'USDT', 'USDC', 'OTHER'];
  it('lists show each currency cut (or fees rounded up) exactly like decimal.js at the display precision', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...codes),
        fc.constantFrom(...CURRENCY_DECIMALS),
        fc.constantFrom('down' as const, 'up' as const),
        stored(18),
        (code, decimals, rounding, raw) => {
          const value = new Decimal(raw).toDecimalPlaces(decimals, Decimal.ROUND_DOWN).toFixed();
          const shown = displayDecimals({ code, decimals });
          expect(shown).toBeLessThanOrEqual(decimals);
          const server = new Decimal(value).toDecimalPlaces(shown, rounding === 'down' ? Decimal.ROUND_DOWN : Decimal.ROUND_UP).toFixed();
          const client = formatDecimal(value, { decimals: shown, rounding });
          expect(client?.replaceAll(',', '')).toBe(server);
          expect(roundAmount(value, shown, rounding)).toBe(server);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
