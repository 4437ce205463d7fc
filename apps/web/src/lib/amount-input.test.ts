import { checkAmount } from '@coffer/contract/rules';
import { describe, expect, it } from 'vitest';
import { appendAmountKey, checkAmountInput, deleteAmountKey } from './amount-input';

function type(keys: string, decimals: number): string {
  return [...keys].reduce((text, key) => appendAmountKey(text, key, decimals), '');
}

describe('keypad entry', () => {
  it('builds amounts key by key', () => {
    expect(type('12.5', 6)).toBe('12.5');
    expect(type('.5', 6)).toBe('0.5');
    expect(type('0012', 6)).toBe('12');
    expect(type('0.05', 6)).toBe('0.05');
  });

  it('refuses a second point, a point on whole-unit currencies and extra decimals', () => {
    expect(type('1.2.3', 6)).toBe('1.23');
    expect(type('7.5', 0)).toBe('75');
    expect(type('1.1234567', 6)).toBe('1.123456');
    expect(type('0.123456789012345678999', 18)).toBe('0.123456789012345678');
  });

  it('caps the integer digits', () => {
    expect(type('1'.repeat(25), 2)).toBe('1'.repeat(20));
  });

  it('ignores other keys and deletes the last character', () => {
    expect(appendAmountKey('12', 'x', 2)).toBe('12');
    expect(deleteAmountKey('12.5')).toBe('12.');
    expect(deleteAmountKey('')).toBe('');
  });
});

describe('checkAmountInput', () => {
  const usdt = { decimals: 6 };

  it('returns the canonical amount', () => {
    expect(checkAmountInput('012.500', usdt)).toEqual({ ok: true, value: '12.5' });
    expect(checkAmountInput('1.', usdt)).toEqual({ ok: true, value: '1' });
  });

  it('names the first problem', () => {
    expect(checkAmountInput('', usdt)).toEqual({ ok: false, error: 'required' });
    expect(checkAmountInput('-1', usdt)).toEqual({ ok: false, error: 'shape' });
    expect(checkAmountInput('1e5', usdt)).toEqual({ ok: false, error: 'shape' });
    expect(checkAmountInput('0.000', usdt)).toEqual({ ok: false, error: 'zero' });
    expect(checkAmountInput('0.0000001', usdt)).toEqual({ ok: false, error: 'decimals' });
    expect(checkAmountInput('1'.repeat(21), usdt)).toEqual({ ok: false, error: 'tooLarge' });
  });

  it('checks limits and the balance exactly', () => {
    const rules = { decimals: 18, min: '0.001', max: '50', available: '10.000000000000000001' };
    expect(checkAmountInput('0.000999999999999999', rules)).toEqual({ ok: false, error: 'belowMin' });
    expect(checkAmountInput('0.001', rules)).toEqual({ ok: true, value: '0.001' });
    expect(checkAmountInput('50.000000000000000001', rules)).toEqual({ ok: false, error: 'aboveMax' });
    expect(checkAmountInput('10.000000000000000001', rules)).toEqual({ ok: true, value: '10.000000000000000001' });
    expect(checkAmountInput('10.000000000000000002', rules)).toEqual({ ok: false, error: 'balance' });
    expect(checkAmountInput('5', { decimals: 2, available: null })).toEqual({ ok: true, value: '5' });
  });

  it('agrees with the contract check the server runs', () => {
    const cur = { decimals: 6, transferMin: '0.01', transferMax: '1000' };
    const samples = ['1', '0.01', '0.009999', '1000', '1000.000001', '0', '1.1234567', '007.10', 'abc', '1.5.5'];
    for (const sample of samples) {
      const server = checkAmount(sample, cur);
      const client = checkAmountInput(sample, { decimals: 6, min: cur.transferMin, max: cur.transferMax });
      expect(client.ok, sample).toBe(server.ok);
      if (client.ok && server.ok) expect(client.value).toBe(server.value);
    }
  });
});
