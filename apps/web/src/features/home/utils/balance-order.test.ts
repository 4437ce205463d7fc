import { describe, expect, it } from 'vitest';
import { orderBalances } from './balance-order';

const rank = (id: number) => id;
const pairs = [
  { fromCurrency: 'BTC', toCurrency: 'USDT', rate: '60000' },
  { fromCurrency: 'ETH', toCurrency: 'USDT', rate: '3000' },
];
const balance = (currencyId: number, code: string, total: string) => ({ currencyId, code, total });

describe('orderBalances', () => {
  it('puts held balances first by worth, unpriced next, zeros last in currency order', () => {
    const list = [
      balance(1, 'USDT', '5'),
      balance(2, 'USDC', '0'),
      balance(3, 'ETH', '0.001'),
      balance(4, 'BTC', '1'),
      balance(5, 'LTC', '2'),
      balance(6, 'DOGE', '0.000'),
    ];
    expect(orderBalances(list, rank, pairs, 'USDT', 6).map((b) => b.code)).toEqual(['BTC', 'USDT', 'ETH', 'LTC', 'USDC', 'DOGE']);
  });

  it('keeps the currency order between equal worths, exactly (no float rounding)', () => {
    const list = [balance(2, 'USDC', '0'), balance(3, 'A', '0.1'), balance(1, 'USDT', '0.1')];
    const same = [{ fromCurrency: 'A', toCurrency: 'USDT', rate: '1' }];
    expect(orderBalances(list, rank, same, 'USDT', 6).map((b) => b.code)).toEqual(['USDT', 'A', 'USDC']);
    const tiny = [balance(1, 'USDT', '0.100000000000000001'), balance(3, 'A', '0.1')];
    expect(orderBalances(tiny, rank, same, 'USDT', 18).map((b) => b.code)).toEqual(['USDT', 'A']);
  });
});
