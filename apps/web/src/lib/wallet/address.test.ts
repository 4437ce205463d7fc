import { describe, expect, it } from 'vitest';
import { checkAddress, shortHash } from './address';

describe('checkAddress (evm)', () => {
  const valid = '0x52908400098527886E0F7030069857D2E4169EE7';

  it('accepts 0x and 40 hex digits in any case, trimmed', () => {
    expect(checkAddress(valid, 'evm')).toEqual({ ok: true, value: valid });
    expect(checkAddress(`  ${valid.toLowerCase()}\n`, 'evm')).toEqual({ ok: true, value: valid.toLowerCase() });
    expect(checkAddress('0x0000000000000000000000000000000000000000', 'evm').ok).toBe(true);
  });

  it('asks for an address when empty', () => {
    expect(checkAddress('', 'evm')).toEqual({ ok: false, error: 'required' });
    expect(checkAddress('   ', 'evm')).toEqual({ ok: false, error: 'required' });
  });

  it('refuses other shapes', () => {
    for (const bad of [
      valid.slice(0, -1),
      `${valid}0`,
      valid.slice(2),
      `0X${valid.slice(2)}`,
      '0x52908400098527886E0F7030069857D2E4169EG7',
      '0x 52908400098527886E0F7030069857D2E4169EE',
      'vitalik.eth',
    ]) {
      expect(checkAddress(bad, 'evm'), bad).toEqual({ ok: false, error: 'shape' });
    }
  });
});

describe('shortHash', () => {
  it('keeps the head and tail of long values', () => {
    expect(shortHash('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x5290…9EE7');
    expect(shortHash('0x1234')).toBe('0x1234');
  });
});
