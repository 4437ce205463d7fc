import { describe, expect, it } from 'vitest';
import { swapEstimate } from './estimate';

// The seeded USDT -> ETH pair: rate after a 30 bps spread, 10 bps fee taken in ETH.
const USDT_ETH = { rate: '0.000332333333333333', feeBps: 10, feeCurrencyId: 3, toCurrencyId: 3 };

describe('swapEstimate', () => {
  it('is what the quote and the record say for 100 USDT: ETH at its display precision, fee up, the rest down', () => {
    // Was 0.033200099999999966 at 18 decimals (docs/decisions/053-one-amount-one-reference.md).
    expect(swapEstimate('100', USDT_ETH, 2, 6)).toEqual({ receive: '0.033199', fee: '0.000034' });
  });

  it('keeps every sold decimal when the fee is taken from a finer amount', () => {
    const pair = { rate: '2991', feeBps: 10, feeCurrencyId: 3, toCurrencyId: 1 };
    // fee = ⌈0.1234567 × 0.001⌉₆ = 0.000124; receive = ⌊0.1233327 × 2991⌋₂ = 368.888...
    expect(swapEstimate('0.1234567', pair, 6, 2)).toEqual({ receive: '368.88', fee: '0.000124' });
  });

  it('takes the fee from what is sold when the pair says so', () => {
    const pair = { rate: '2991', feeBps: 10, feeCurrencyId: 3, toCurrencyId: 1 };
    // fee = ⌈0.1 × 0.001⌉ at 18 decimals = 0.0001; receive = ⌊0.0999 × 2991⌋ at 6 = 298.8009
    expect(swapEstimate('0.1', pair, 18, 6)).toEqual({ receive: '298.8009', fee: '0.0001' });
  });

  it('shows nothing when nothing would be received (the server refuses it)', () => {
    expect(swapEstimate('0.000001', USDT_ETH, 6, 0)).toBeNull();
  });
});
