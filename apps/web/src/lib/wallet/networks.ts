import type { Network } from '@coffer/contract/chain';
import type { Currency } from '@coffer/contract/ledger';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { queryKeys } from '../query-keys';

/* GET /api/currency/onchain (public): the networks each currency moves on. Shared by charge and withdraw. */

export function getNetworks(): Promise<Network[]> {
  return apiGet<Network[]>('/currency/onchain');
}

export function networksQueryOptions() {
  // Operators change networks rarely; a freeze also shows in the withdrawal limits.
  return queryOptions({ queryKey: queryKeys.networks, queryFn: getNetworks, staleTime: 60_000 });
}

export function useNetworks() {
  return useQuery(networksQueryOptions());
}

export type NetworkUse = 'deposit' | 'withdraw';

/** The networks of one currency usable for deposits or withdrawals, in the server's order. */
export function networksFor(networks: readonly Network[] | undefined, currencyId: number | undefined, use: NetworkUse): Network[] {
  return (networks ?? []).filter((n) => n.currencyId === currencyId && (use === 'deposit' ? n.depositEnabled : n.withdrawEnabled));
}

/** The currencies that have at least one network for this use (a currency without networks moves only inside Coffer). */
export function currenciesWithNetworks(
  currencies: readonly Currency[],
  networks: readonly Network[] | undefined,
  use: NetworkUse,
): Currency[] {
  return currencies.filter((c) => networksFor(networks, c.id, use).length > 0);
}
