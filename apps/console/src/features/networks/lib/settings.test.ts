import { describe, expect, it } from 'vitest';
import { SETTINGS, templatePattern } from './settings';

describe('network settings form: explorer templates', () => {
  it('offers the address and the transaction page, each with its placeholder', () => {
    expect(SETTINGS.filter((s) => s.kind === 'url').map((s) => [s.key, s.placeholder, s.optional])).toEqual([
      ['explorerUrl', '{address}', true],
      ['explorerTxUrl', '{tx}', true],
    ]);
  });

  it('accepts an http(s) template with the placeholder only', () => {
    const tx = templatePattern('{tx}');
    expect(tx.test('https://etherscan.io/tx/{tx}')).toBe(true);
    expect(tx.test(' http://scan.example/t/{tx}?x=1 ')).toBe(true);
    expect(tx.test('https://etherscan.io/tx/')).toBe(false);
    expect(tx.test('https://etherscan.io/address/{address}')).toBe(false);
    expect(tx.test('ftp://scan.example/{tx}')).toBe(false);
    expect(tx.test('https://scan.example/a b/{tx}')).toBe(false);
    expect(templatePattern('{address}').test('https://etherscan.io/address/{address}')).toBe(true);
  });
});
