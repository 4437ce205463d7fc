import { checkAmount, maskEmail, trimDecimal } from '@coffer/contract';
import { describe, expect, it } from 'vitest';
import type { BizError } from '../core/errors.ts';
import { parseAmount } from './amounts.ts';

const usdt = { decimals: 6, transferMin: null, transferMax: null };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as BizError).bizCode;
  }
  return 0;
};

describe('amount rules', () => {
  it('accepts exact amounts and answers their shortest form', () => {
    expect(parseAmount('12.5', usdt)).toBe('12.5');
    expect(parseAmount('0012.500000', usdt)).toBe('12.5');
    expect(parseAmount('0.000001', usdt)).toBe('0.000001');
    expect(parseAmount('1.50', { decimals: 1 })).toBe('1.5');
    expect(parseAmount('7', { decimals: 0 })).toBe('7');
    expect(parseAmount('99999999999999999999', usdt)).toBe('99999999999999999999');
    expect(parseAmount('0.123456789012345678', { decimals: 18 })).toBe('0.123456789012345678');
  });

  it('refuses more decimals than the currency has (never rounds): 3002', () => {
    expect(code(() => parseAmount('0.0000001', usdt))).toBe(3002);
    expect(code(() => parseAmount('1.05', { decimals: 1 }))).toBe(3002);
    expect(code(() => parseAmount('1.5', { decimals: 0 }))).toBe(3002);
  });

  it('refuses zero, amounts beyond NUMERIC(38,18) and outside the currency limits: 3002', () => {
    expect(code(() => parseAmount('0', usdt))).toBe(3002);
    expect(code(() => parseAmount('0.000000', usdt))).toBe(3002);
    expect(code(() => parseAmount('100000000000000000000', usdt))).toBe(3002);
    const limited = { decimals: 6, transferMin: '1', transferMax: '1000' };
    expect(code(() => parseAmount('0.999999', limited))).toBe(3002);
    expect(code(() => parseAmount('1000.000001', limited))).toBe(3002);
    expect(parseAmount('1000', limited)).toBe('1000');
    expect(parseAmount('0.5', limited, { limits: false })).toBe('0.5');
  });

  it('refuses non-decimal shapes: 1001', () => {
    for (const bad of ['', 'abc', '-1', '+1', '1e5', '1.', '.5', '0x10', '1,5', 'NaN', 'Infinity', ' 1 2']) {
      expect(
        code(() => parseAmount(bad, usdt)),
        bad,
      ).toBe(1001);
    }
  });

  it('works in minor units without floats', () => {
    const res = checkAmount('0.1', { decimals: 18 });
    expect(res).toEqual({ ok: true, value: '0.1', units: 100000000000000000n });
  });

  it('formats stored numerics and masks e-mails', () => {
    expect(trimDecimal('10.500000000000000000')).toBe('10.5');
    expect(trimDecimal('0.000000000000000000')).toBe('0');
    expect(trimDecimal('-0.000000000000000000')).toBe('0');
    expect(trimDecimal('-3.140000000000000000')).toBe('-3.14');
    expect(trimDecimal('100')).toBe('100');
    expect(maskEmail('alice@x.com')).toBe('a***e@x.com');
    expect(maskEmail('al@x.com')).toBe('a***@x.com');
    expect(maskEmail('a@x.com')).toBe('a***@x.com');
  });
});
