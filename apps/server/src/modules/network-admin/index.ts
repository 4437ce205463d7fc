/** What the operator command (cli/network-set.ts) uses: the one audited way to change a network. */
export type { ChainClients } from './contract-check.ts';
export { listAdminNetworks, type NetworkActor, type NetworkChangeContext, updateNetwork } from './service.ts';
