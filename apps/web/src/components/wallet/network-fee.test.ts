import { describe, expect, it } from 'vitest';
import { networkFeeText } from './network-fee';

describe('networkFeeText', () => {
  it("shows the fee at the currency's display precision, rounded up and grouped", () => {
    expect(networkFeeText('0.000123456789', 'ETH')).toBe('0.000124');
    expect(networkFeeText('0.100000000000000000', 'USDT')).toBe('0.1');
    expect(networkFeeText('1234.561', { code: 'USDT', decimals: 6, displayDecimals: 2 })).toBe('1,234.57');
    expect(networkFeeText('0.0002', { code: 'LTC', decimals: 8, displayDecimals: 6 })).toBe('0.0002');
    expect(networkFeeText('0.00000001', { code: 'LTC', decimals: 8, displayDecimals: 6 })).toBe('0.000001');
  });
});
