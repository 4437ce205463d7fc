import { describe, expect, it } from 'vitest';
import { LOCALES } from '@coffer/contract/rules';
import {
  formatExact,
  formatFiat,
  formatMoney,
  formatNaturalRate,
  formatRateValue,
  INTERFACE_SEPARATORS,
  isRounded,
  localeSeparators,
} from './amount-format';

const ETH = { code: 'ETH', decimals: 18 };
const USDT = { code: 'USDT', decimals: 6 };
const BTC = { code: 'BTC', decimals: 8 };

describe('formatMoney', () => {
  it('shows each currency at its display precision, rounding toward the house', () => {
    expect(formatMoney('0.033200099999999966', ETH)).toBe('0.0332');
    expect(formatMoney('2.533200099999999966', ETH)).toBe('2.5332');
    expect(formatMoney('0.000033233333333334', ETH, 'up')).toBe('0.000034');
    expect(formatMoney('1234567.891', USDT)).toBe('1,234,567.89');
    expect(formatMoney('900', USDT)).toBe('900');
    // Home's total reads like the balances beside it (decision 053): no padded "900.00".
    expect(formatFiat('900', USDT)).toBe('900');
    expect(formatFiat('99.301499', USDT)).toBe('99.3');
    expect(formatMoney('0.123456789', BTC)).toBe('0.12345678');
    expect(formatMoney('1.999', 'USDT')).toBe('1.99');
    expect(formatMoney('-1.999', 'USDT')).toBe('-1.99');
    expect(formatMoney(null, USDT)).toBe('--');
    expect(formatMoney('abc', USDT)).toBe('--');
  });

  it('never shows more decimals than the currency has, and the exact value unknown', () => {
    expect(formatMoney('5', { code: 'JPYX', decimals: 0 })).toBe('5');
    expect(formatMoney('0.123456789', undefined)).toBe('0.123456789');
    expect(formatExact('12345.000000000000000001')).toBe('12,345.000000000000000001');
    expect(isRounded('0.033200099999999966', ETH)).toBe(true);
    expect(isRounded('0.0332', ETH)).toBe(false);
  });

  it('groups by locale', () => {
    expect(localeSeparators('en-US')).toEqual({ group: ',', decimal: '.' });
    expect(localeSeparators('zh-CN')).toEqual({ group: ',', decimal: '.' });
    expect(localeSeparators('de-DE')).toEqual({ group: '.', decimal: ',' });
  });

  it("writes out the interface languages' marks exactly as Intl has them", () => {
    for (const locale of LOCALES) {
      const parts = new Intl.NumberFormat(locale).formatToParts(1234.5);
      const mark = (type: string) => parts.find((p) => p.type === type)?.value;
      expect(INTERFACE_SEPARATORS[locale]).toEqual({ group: mark('group'), decimal: mark('decimal') });
    }
  });
});

describe('formatNaturalRate', () => {
  it('reads the larger unit first, the inverse rounded up', () => {
    expect(formatNaturalRate('0.000332333333333333', USDT, ETH)).toBe('1 ETH ≈ 3,009.03 USDT');
    expect(formatNaturalRate('2991', ETH, USDT)).toBe('1 ETH ≈ 2,991.00 USDT');
    expect(formatNaturalRate('0.999', USDT, { code: 'USDC', decimals: 6 })).toBe('1 USDT ≈ 0.999 USDC');
    expect(formatNaturalRate('0', USDT, ETH)).toBe('--');
    expect(formatRateValue('59820.123', USDT)).toBe('59,820.12');
  });
});
