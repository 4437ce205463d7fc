import { describe, expect, it } from 'vitest';
import { totalValue, valueIn } from './total-value';

const pairs = [
  { fromCurrency: 'ETH', toCurrency: 'USDT', rate: '2991' },
  { fromCurrency: 'USDT', toCurrency: 'ETH', rate: '0.000332333333333333' },
  { fromCurrency: 'BTC', toCurrency: 'USDT', rate: '59820' },
  { fromCurrency: 'USDT', toCurrency: 'USDC', rate: '0.999' },
];

describe('totalValue', () => {
  it('adds the reference currency as it is and prices others through X -> ref rates', () => {
    const result = totalValue(
      [
        { code: 'USDT', total: '100.5' },
        { code: 'ETH', total: '0.1' },
        { code: 'BTC', total: '0.00000001' },
      ],
      pairs,
      'USDT',
      6,
    );
    // 100.5 + 299.1 + 0.0005982
    expect(result).toEqual({ total: '399.600598', unpriced: [] });
  });

  it('divides through the inverse pair when there is no direct one', () => {
    const result = totalValue([{ code: 'USDC', total: '9.99' }], pairs, 'USDT', 6);
    expect(result.total).toBe('10');
  });

  it('stays exact where floats would drift', () => {
    const result = totalValue(
      [
        { code: 'USDT', total: '0.1' },
        { code: 'USDT', total: '0.2' },
      ],
      [],
      'USDT',
      6,
    );
    expect(result.total).toBe('0.3');
    const big = totalValue([{ code: 'ETH', total: '123456789.123456789012345678' }], pairs, 'USDT', 6);
    expect(big.total).toBe('369259256268.259255');
  });

  it('cuts each term toward the house instead of rounding up', () => {
    expect(totalValue([{ code: 'ETH', total: '0.000000000000000001' }], pairs, 'USDT', 6).total).toBe('0');
    expect(totalValue([{ code: 'USDT', total: '1.9999999' }], pairs, 'USDT', 6).total).toBe('1.999999');
  });

  it('skips zero balances and reports currencies it cannot price', () => {
    const result = totalValue(
      [
        { code: 'DOGE', total: '5' },
        { code: 'XRP', total: '0' },
        { code: 'USDT', total: '1' },
      ],
      pairs,
      'USDT',
      6,
    );
    expect(result).toEqual({ total: '1', unpriced: ['DOGE'] });
  });

  it('is zero for an empty wallet', () => {
    expect(totalValue([], pairs, 'USDT', 6)).toEqual({ total: '0', unpriced: [] });
  });
});

describe('valueIn', () => {
  it('prices one balance in the reference currency, cut toward the house', () => {
    expect(valueIn({ code: 'ETH', total: '0.033200099999999966' }, pairs, 'USDT', 6)).toBe('99.301499');
    expect(valueIn({ code: 'USDT', total: '900' }, pairs, 'USDT', 6)).toBe('900');
    expect(valueIn({ code: 'DOGE', total: '5' }, pairs, 'USDT', 6)).toBeNull();
  });
});
