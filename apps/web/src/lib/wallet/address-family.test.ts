import { addressFamily } from '@coffer/contract/rules';
import { describe, expect, it } from 'vitest';

describe('addressFamily (the /withdraw warning on an address of another kind of network)', () => {
  it('tells an EVM address from a UTXO one by its shape', () => {
    expect(addressFamily(' 0x8ba1f109551bD432803012645Ac136ddd64DBA72 ')).toBe('evm');
    expect(addressFamily('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe('utxo');
    expect(addressFamily('rltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty')).toBe('utxo');
    expect(addressFamily('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe('utxo');
    expect(addressFamily('LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9')).toBe('utxo');
  });
  it('answers null for what looks like neither (the field’s own check speaks then)', () => {
    expect(addressFamily('')).toBeNull();
    expect(addressFamily('0x1234')).toBeNull();
    expect(addressFamily('hello world')).toBeNull();
  });
});
