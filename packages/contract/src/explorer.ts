/**
 * Block explorer links of a network (docs/decisions/058-explorer-transaction-links.md). No
 * schemas here: the operator console imports this without bundling zod (whose schemas probe
 * for eval, which the console's CSP refuses).
 */

/** Placeholders of a network's explorer templates (docs/decisions/058-explorer-transaction-links.md). */
export const EXPLORER_ADDRESS_PLACEHOLDER = '{address}';
export const EXPLORER_TX_PLACEHOLDER = '{tx}';

/**
 * A template filled in: the value URL-encoded wherever the placeholder stands, so an odd
 * address or hash cannot change the link's path, query or scheme. null without a template.
 */
export function fillExplorerTemplate(template: string | null | undefined, placeholder: string, value: string): string | null {
  return template ? template.split(placeholder).join(encodeURIComponent(value)) : null;
}

/** The explorer link of an address on a network, or null without an explorer. */
export function explorerLink(template: string | null | undefined, address: string): string | null {
  return fillExplorerTemplate(template, EXPLORER_ADDRESS_PLACEHOLDER, address);
}

/** The explorer link of a transaction on a network, or null without an explorer. */
export function explorerTxLink(template: string | null | undefined, txHash: string): string | null {
  return fillExplorerTemplate(template, EXPLORER_TX_PLACEHOLDER, txHash);
}
