import { explorerLink, explorerTxLink, type Network } from '@coffer/contract/chain';

/** Where a record's hash and address open on the network's block explorer; null: no link. */
export interface ExplorerLinks {
  tx: string | null;
  address: string | null;
}

type Templates = Pick<Network, 'explorerUrl' | 'explorerTxUrl'>;

/**
 * The server checked the templates (docs/decisions/058-explorer-transaction-links.md); the app
 * still opens only http(s) pages, whatever the network list holds.
 */
const web = (link: string | null) => (link && /^https?:\/\//i.test(link) ? link : null);

/**
 * The explorer links of a deposit or withdrawal on its network: its transaction (once it has a
 * hash) and its address, each value URL-encoded into the template. A network without templates
 * (the local chains) or not in the list gives none.
 */
export function explorerLinks(network: Templates | undefined, record: { txHash: string | null; address: string }): ExplorerLinks {
  return {
    tx: record.txHash ? web(explorerTxLink(network?.explorerTxUrl, record.txHash)) : null,
    address: web(explorerLink(network?.explorerUrl, record.address)),
  };
}
