/**
 * Address poisoning: a scammer sends dust from an address whose first and last characters
 * match one the user paid before, hoping the user copies it from the history. A destination
 * that shares both ends with a known one but differs in the middle is worth a warning
 * (docs/security.md, "Address book").
 */

/** Hex characters compared at each end (after 0x): what wallets show of a shortened address. */
export const LOOKALIKE_END_CHARS = 4;

/** The known address `address` imitates, or null (the same address is not a lookalike). */
export function lookalikeOf(address: string, known: readonly string[]): string | null {
  const a = address.toLowerCase().replace(/^0x/, '');
  const head = a.slice(0, LOOKALIKE_END_CHARS);
  const tail = a.slice(-LOOKALIKE_END_CHARS);
  for (const candidate of known) {
    const k = candidate.toLowerCase().replace(/^0x/, '');
    if (k !== a && k.length === a.length && k.startsWith(head) && k.endsWith(tail)) return candidate;
  }
  return null;
}
