/**
 * Which family an address looks like, by its shape only (no checksum): the app warns when it
 * is not the chosen network's (an EVM address typed on a UTXO network, or the reverse). The
 * server validates the address for real (docs/decisions/050-several-networks.md).
 */
export type AddressFamily = 'evm' | 'utxo';

const EVM_SHAPE = /^0x[0-9a-fA-F]{40}$/;
/** bech32 / bech32m segwit (Bitcoin and Litecoin main, test and regtest prefixes). */
const SEGWIT_SHAPE = /^(bc|tb|bcrt|ltc|tltc|rltc)1[02-9ac-hj-np-z]{8,87}$/i;
/** base58 legacy and script addresses (1, 3, m, n, 2 on Bitcoin; L, M on Litecoin). */
const BASE58_SHAPE = /^[13mn2LM][1-9A-HJ-NP-Za-km-z]{25,34}$/;

export function addressFamily(raw: string): AddressFamily | null {
  const value = raw.trim();
  if (EVM_SHAPE.test(value)) return 'evm';
  if (SEGWIT_SHAPE.test(value) || BASE58_SHAPE.test(value)) return 'utxo';
  return null;
}
