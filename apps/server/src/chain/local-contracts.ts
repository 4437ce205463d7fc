import type { PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import type { EvmAddress } from './evm.ts';

/**
 * Points the local chain's USDT and USDC networks at the test tokens deployed there, at start.
 * A contract an operator chose (docs/decisions/041-network-settings.md) is kept while it is
 * still a contract on this chain; only a network without one, or with an address that holds
 * no code (a fresh chain, the state file deleted), gets the deployed token. Answers the
 * networks changed.
 */
export async function syncLocalTokenContracts(
  database: Database,
  client: PublicClient,
  chainId: number,
  tokens: { USDT: EvmAddress; USDC: EvmAddress },
): Promise<number[]> {
  const rows = await database.sql.query<{ id: number; code: 'USDT' | 'USDC'; contract: string | null }>(
    `select n.id, c.code, n.contract from networks n join currencies c on c.id = n.currency_id
      where n.chain_id = $1 and c.code in ('USDT', 'USDC') and not n.native`,
    [chainId],
  );
  const changed: number[] = [];
  for (const row of rows) {
    const deployed = tokens[row.code];
    if (row.contract?.toLowerCase() === deployed.toLowerCase()) continue;
    if (row.contract !== null && (await client.getCode({ address: row.contract as EvmAddress }))) continue;
    await database.sql.query('update networks set contract = $2 where id = $1', [row.id, deployed]);
    changed.push(row.id);
  }
  return changed;
}
