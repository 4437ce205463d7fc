import type { WithdrawLimits } from '@coffer/contract/chain';
import { describe, expect, it } from 'vitest';
import { allAmount, amountReceived, checkWithdrawAmount, withdrawTotal } from './withdraw-amount';

const limits: WithdrawLimits = {
  networkId: 1,
  fee: '0.001',
  min: '0.01',
  max: '10',
  dailyLimit: '20',
  dailyRemaining: '5',
  available: '3.2',
  payoutsFrozen: false,
};

describe('allAmount', () => {
  it('is available minus the fee, exactly', () => {
    expect(allAmount('3.2', '0.001', 18)).toBe('3.199');
    expect(allAmount('0.3', '0.1', 18)).toBe('0.2');
    expect(allAmount('1000', '1', 6)).toBe('999');
    expect(allAmount('1', '0.000000000000000001', 18)).toBe('0.999999999999999999');
  });

  it('is cut (never rounded up) to the currency decimals', () => {
    expect(allAmount('1.23456789', '0.00000001', 6)).toBe('1.234567');
    expect(allAmount('0.9999999', '0', 2)).toBe('0.99');
  });

  it('is never negative', () => {
    expect(allAmount('0.0005', '0.001', 18)).toBe('0');
    expect(allAmount('0.001', '0.001', 18)).toBe('0');
    expect(allAmount('0', '5', 6)).toBe('0');
  });

  it('with no fee is the whole balance', () => {
    expect(allAmount('12.5', '0', 6)).toBe('12.5');
  });
});

describe('amountReceived and withdrawTotal', () => {
  it('the address receives the amount; amount + fee leaves the balance', () => {
    expect(amountReceived('1.5')).toBe('1.5');
    expect(withdrawTotal('0.1', '0.2')).toBe('0.3');
    expect(withdrawTotal('3.199', '0.001')).toBe('3.2');
    expect(withdrawTotal('100', '1')).toBe('101');
  });
});

describe('checkWithdrawAmount', () => {
  it('accepts an amount whose total fits, returning its canonical form and total', () => {
    expect(checkWithdrawAmount('01.50', 18, limits)).toEqual({ ok: true, value: '1.5', total: '1.501' });
    expect(checkWithdrawAmount(allAmount(limits.available, limits.fee, 18), 18, limits)).toEqual({
      ok: true,
      value: '3.199',
      total: '3.2',
    });
  });

  it('refuses an amount whose total with the fee exceeds the available balance', () => {
    expect(checkWithdrawAmount('3.2', 18, limits)).toEqual({ ok: false, error: 'balance' });
    expect(checkWithdrawAmount('3.1995', 18, limits)).toEqual({ ok: false, error: 'balance' });
  });

  it('applies min, max, decimals and the daily remainder', () => {
    expect(checkWithdrawAmount('0.009', 18, limits)).toEqual({ ok: false, error: 'belowMin' });
    expect(checkWithdrawAmount('11', 18, { ...limits, available: '100', dailyRemaining: '100' })).toEqual({
      ok: false,
      error: 'aboveMax',
    });
    expect(checkWithdrawAmount('6', 18, { ...limits, available: '100' })).toEqual({ ok: false, error: 'dailyLimit' });
    expect(checkWithdrawAmount('1.1234567', 6, limits)).toEqual({ ok: false, error: 'decimals' });
    expect(checkWithdrawAmount('', 6, limits)).toEqual({ ok: false, error: 'required' });
    expect(checkWithdrawAmount('0', 6, limits)).toEqual({ ok: false, error: 'zero' });
  });

  it('says the balance is short before the amount is above the maximum', () => {
    // 50 is above the 10 maximum and beyond the 3.2 available: the balance is what the user must fix first.
    expect(checkWithdrawAmount('50', 18, limits)).toEqual({ ok: false, error: 'balance' });
    expect(checkWithdrawAmount('11', 18, { ...limits, available: '100' })).toEqual({ ok: false, error: 'aboveMax' });
  });

  it('checks only the shape until the limits are known', () => {
    expect(checkWithdrawAmount('99999', 6, undefined)).toEqual({ ok: true, value: '99999', total: '99999' });
  });
});
