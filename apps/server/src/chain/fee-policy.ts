import type { Database } from '../db/client.ts';

/**
 * The fee policy of each network, read from its networks row on every tick (an operator's
 * change takes effect without a restart; docs/decisions/037):
 *   gas_price_cap_wei  the highest gas price signed: above it new payouts wait ('fees_high')
 *                      and replacements stop at it;
 *   max_fee_bumps      replacements of one payout at a higher price; after them it stops
 *                      escalating ('fee_bumps_exhausted') and waits for an operator.
 * A network of a real chain without a cap pays nothing: an uncapped fee spike would spend the
 * hot wallet's float on gas.
 */

/** anvil / hardhat: the only chains where a network may run without a gas price cap. */
export const LOCAL_CHAIN_IDS: readonly number[] = [31337, 1337, 31338];

export type WaitReason = 'fees_high' | 'hot_wallet_short' | 'node_unavailable' | 'fee_bumps_exhausted';

export interface FeePolicy {
  networkId: number;
  /** wei; null: no cap (local chains only) */
  capWei: bigint | null;
  /** replacements per payout at most */
  maxBumps: number;
  /** false: a real chain without a cap, nothing is signed */
  payable: boolean;
}

/**
 * The policies of the chain's networks. `overrideCapWei` (the workers' maxFeeWei option) can
 * only lower a network's cap, never lift it.
 */
export async function loadFeePolicies(database: Database, chainId: number, overrideCapWei?: bigint): Promise<Map<number, FeePolicy>> {
  const rows = await database.sql.query<{ id: number; cap: string | null; max_fee_bumps: number }>(
    'select id, gas_price_cap_wei::text as cap, max_fee_bumps from networks where chain_id = $1',
    [chainId],
  );
  const local = LOCAL_CHAIN_IDS.includes(chainId);
  return new Map(
    rows.map((r) => {
      let cap = r.cap === null ? null : BigInt(r.cap);
      if (overrideCapWei !== undefined && (cap === null || overrideCapWei < cap)) cap = overrideCapWei;
      return [r.id, { networkId: r.id, capWei: cap, maxBumps: r.max_fee_bumps, payable: cap !== null || local }];
    }),
  );
}

/** The networks of a real chain that have no gas price cap (they pay nothing; said at start-up). */
export async function uncappedNetworks(database: Database, chainId: number): Promise<number[]> {
  if (LOCAL_CHAIN_IDS.includes(chainId)) return [];
  const rows = await database.sql.query<{ id: number }>(
    'select id from networks where chain_id = $1 and gas_price_cap_wei is null and withdraw_enabled order by id',
    [chainId],
  );
  return rows.map((r) => r.id);
}

/** True when `price` may be signed under `policy`. */
export function underCap(policy: FeePolicy | undefined, price: bigint): boolean {
  if (!policy?.payable) return false;
  return policy.capWei === null || price <= policy.capWei;
}

/**
 * Says why withdrawals wait (shown to their users, and to operators with its age). The wait
 * keeps its first `wait_since` while the reason stays; a new reason starts a new wait.
 */
export async function noteWait(database: Database, ids: number[], reason: WaitReason): Promise<void> {
  if (ids.length === 0) return;
  await database.sql.query(
    `update withdrawals set wait_since = case when wait_reason is distinct from $2 then now() else wait_since end, wait_reason = $2
     where id = any(string_to_array($1, ',')::bigint[]) and status in ('queued', 'broadcast') and wait_reason is distinct from $2`,
    [ids.join(','), reason],
  );
}
