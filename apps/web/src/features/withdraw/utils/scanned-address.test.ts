import { describe, expect, it } from 'vitest';
import { scannedAddress } from './scanned-address';

describe('scannedAddress', () => {
  it('keeps a bare address', () => {
    expect(scannedAddress(' 0x52908400098527886E0F7030069857D2E4169EE7 ')).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
  });

  it('takes the address out of payment URIs', () => {
    expect(scannedAddress('litecoin:ltc1qabc?amount=1.5&label=x')).toBe('ltc1qabc');
    expect(scannedAddress('bitcoin:BC1QXYZ')).toBe('BC1QXYZ');
    expect(scannedAddress('ethereum:0xAbC@1?value=1e18')).toBe('0xAbC');
    expect(scannedAddress('ethereum:pay-0xAbC@42161')).toBe('0xAbC');
  });

  it('uses an ERC-20 transfer URI’s recipient, not the token contract', () => {
    expect(scannedAddress('ethereum:0xToken@1/transfer?address=0xRecipient&uint256=1')).toBe('0xRecipient');
  });

  it('leaves web links alone', () => {
    expect(scannedAddress('https://example.com/a')).toBe('https://example.com/a');
  });
});
