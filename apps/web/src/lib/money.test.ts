import { describe, expect, it } from 'vitest';
import {
  addAmounts,
  compareAmounts,
  divideAmounts,
  formatAmount,
  formatCompact,
  formatRate,
  fromUnits,
  isZeroAmount,
  multiplyAmounts,
  subtractAmounts,
  toUnits,
} from './money';

describe('formatAmount', () => {
  it('groups thousands and drops trailing zeros by default', () => {
    expect(formatAmount('1234567.8900')).toBe('1,234,567.89');
    expect(formatAmount('1000')).toBe('1,000');
    expect(formatAmount('0.000000000000000001')).toBe('0.000000000000000001');
  });

  it('cuts extra decimals instead of rounding them up', () => {
    expect(formatAmount('1.999999', { decimals: 2 })).toBe('1.99');
    expect(formatAmount('-1.999999', { decimals: 2 })).toBe('-1.99');
  });

  it('pads to the requested decimals', () => {
    expect(formatAmount('12', { decimals: 2 })).toBe('12.00');
    expect(formatAmount('12.5', { decimals: 4 })).toBe('12.5000');
    expect(formatAmount('3.7', { decimals: 0 })).toBe('3');
  });

  it('keeps digits beyond float precision exactly', () => {
    expect(formatAmount('12345678901234567890.123456789012345678')).toBe('12,345,678,901,234,567,890.123456789012345678');
    expect(formatAmount('0.1', { decimals: 20 })).toBe('0.10000000000000000000');
  });

  it('can leave out the separators', () => {
    expect(formatAmount('1234567.5', { group: false })).toBe('1234567.5');
  });

  it('normalises leading zeros and negative zero', () => {
    expect(formatAmount('000123.40')).toBe('123.4');
    expect(formatAmount('-0.0001', { decimals: 2 })).toBe('0.00');
    expect(formatAmount('-0')).toBe('0');
  });

  it('shows a placeholder for anything that is not a decimal string', () => {
    expect(formatAmount(null)).toBe('--');
    expect(formatAmount(undefined)).toBe('--');
    expect(formatAmount('1e5')).toBe('--');
    expect(formatAmount('abc', { placeholder: '-' })).toBe('-');
    expect(formatAmount('1.')).toBe('--');
  });
});

describe('units', () => {
  it('converts to and from integer units', () => {
    expect(toUnits('1.5', 6)).toBe(1_500_000n);
    expect(toUnits('1.500', 1)).toBe(15n);
    expect(toUnits('-0.01', 2)).toBe(-1n);
    expect(fromUnits(1_500_000n, 6)).toBe('1.5');
    expect(fromUnits(-1n, 2)).toBe('-0.01');
    expect(fromUnits(0n, 18)).toBe('0');
    expect(fromUnits(123n, 0)).toBe('123');
  });

  it('refuses amounts with more decimals than the currency has', () => {
    expect(() => toUnits('0.123', 2)).toThrow(/decimals/);
    expect(() => toUnits('x', 2)).toThrow(/decimal string/);
  });

  it('compares without floats', () => {
    expect(compareAmounts('0.1', '0.10')).toBe(0);
    expect(compareAmounts('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareAmounts('0.000000000000000001', '0.000000000000000002')).toBe(-1);
  });
});

describe('arithmetic', () => {
  it('adds exactly', () => {
    expect(addAmounts('0.1', '0.2')).toBe('0.3');
    expect(addAmounts('1.5', '-0.25', '100')).toBe('101.25');
    expect(addAmounts()).toBe('0');
  });

  it('subtracts exactly', () => {
    expect(subtractAmounts('0.3', '0.1')).toBe('0.2');
    expect(subtractAmounts('1', '0.000000000000000001')).toBe('0.999999999999999999');
    expect(subtractAmounts('0.5', '2')).toBe('-1.5');
    expect(subtractAmounts('100.10', '0.1')).toBe('100');
  });

  it('multiplies and divides, cutting toward zero', () => {
    expect(multiplyAmounts('0.1', '3', 6)).toBe('0.3');
    expect(multiplyAmounts('1.23456789', '1', 4)).toBe('1.2345');
    expect(multiplyAmounts('2', '1.5', 0)).toBe('3');
    expect(multiplyAmounts('-1.99', '1', 1)).toBe('-1.9');
    expect(divideAmounts('1', '3', 6)).toBe('0.333333');
    expect(divideAmounts('10', '0.000333333333333333', 6)).toBe('30000');
    expect(() => divideAmounts('1', '0', 2)).toThrow(RangeError);
  });

  it('recognises zero', () => {
    expect(isZeroAmount('0.000')).toBe(true);
    expect(isZeroAmount('0.001')).toBe(false);
    expect(isZeroAmount('x')).toBe(false);
  });
});

describe('formatCompact', () => {
  it('cuts long amounts for lists', () => {
    expect(formatCompact('0.033200099999999966')).toBe('0.03320009');
    expect(formatCompact('-1234.123456789')).toBe('-1,234.12345678');
    expect(formatCompact('0.00000000099', 8)).toBe('0');
    expect(formatCompact('12.5', 2)).toBe('12.5');
    expect(formatCompact('abc')).toBe('--');
  });
});

describe('formatRate', () => {
  it('keeps at most 8 decimals, cut', () => {
    expect(formatRate('2991')).toBe('2,991');
    expect(formatRate('0.000332333333333333')).toBe('0.00033233');
    expect(formatRate(null)).toBe('--');
  });
});
