/**
 * EVM destinations that accept a payment and never give it back (docs/security.md,
 * "Unspendable destinations"). A withdrawal to one of them is refused (3013): what reaches
 * them is burned. The token contracts Coffer knows are judged with the networks table
 * (modules/withdrawals), not here.
 */

/**
 * The precompiles are the addresses 0x…01 up to this one: 0x01-0x09 since Istanbul,
 * 0x0a (point evaluation) since Cancun, 0x0b-0x11 (BLS12-381) since Prague. No private key
 * belongs to them, and the low addresses above are reserved for later precompiles, so the
 * whole range up to 0xff is refused.
 */
const LAST_RESERVED_PRECOMPILE = 0xff;

/** Well-known unspendable addresses outside the precompile range (lowercase). */
const BURN_ADDRESSES: ReadonlySet<string> = new Set([
  // RIP-7212 secp256r1 verification precompile on rollups.
  '0x0000000000000000000000000000000000000100',
  // The "dead" address that burn transactions use by convention.
  '0x000000000000000000000000000000000000dead',
  // All ones: no key is known to belong to it, and it is a common placeholder.
  '0xffffffffffffffffffffffffffffffffffffffff',
]);

/** True for the zero address, the (reserved) precompiles and well-known burn addresses. */
export function isUnspendableEvmAddress(address: string): boolean {
  const lower = address.toLowerCase();
  if (BURN_ADDRESSES.has(lower)) return true;
  if (!/^0x[0-9a-f]{40}$/.test(lower)) return false;
  return BigInt(lower) <= BigInt(LAST_RESERVED_PRECOMPILE);
}
