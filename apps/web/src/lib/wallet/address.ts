import type { Network } from '@coffer/contract/chain';

/**
 * The shape check of a withdrawal address before it is sent. Only the shape: the server
 * also checks the EIP-55 checksum of mixed-case addresses and answers 3008.
 */

const EVM_ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
/** base58check (P2PKH, P2SH) or bech32/bech32m (segwit): the server checks the network and checksum. */
const UTXO_ADDRESS_RE = /^[a-zA-Z0-9]{25,90}$/;

export type AddressError = 'required' | 'shape';

export type AddressCheck = { ok: true; value: string } | { ok: false; error: AddressError };

export function checkAddress(raw: string, family: Network['family']): AddressCheck {
  const value = raw.trim();
  if (value === '') return { ok: false, error: 'required' };
  switch (family) {
    case 'evm':
      return EVM_ADDRESS_RE.test(value) ? { ok: true, value } : { ok: false, error: 'shape' };
    case 'utxo':
      return UTXO_ADDRESS_RE.test(value) ? { ok: true, value } : { ok: false, error: 'shape' };
  }
}

/** "0x1234…abcd": enough to recognise an address or hash in a list. */
export function shortHash(value: string, head = 6, tail = 4): string {
  return value.length <= head + tail + 1 ? value : `${value.slice(0, head)}…${value.slice(-tail)}`;
}
