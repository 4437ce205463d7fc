import { formatUnits, type PublicClient, parseUnits } from 'viem';
import type { HdWallet } from '../chain/keys.ts';
import { reconcile } from '../chain/reconcile.ts';
import type { Database } from '../db/client.ts';
import type { SimChain } from './chain.ts';
import type { ChainFaults } from './faults.ts';
import { type Addr, tokenTransfer } from './world.ts';

/**
 * The invariants checked after every step. Each answers the first violation it finds as a
 * sentence (null: holds). They read the chain double's canonical blocks directly (what
 * really happened on chain) and the database as the workers left it.
 */

/**
 * Whether the ledger books the hot wallet's float and every gas payment (decision 038). Until
 * it does, reconcile()'s drift is float - gas + deposits not credited yet, and the check
 * expects exactly that; once it does, set this true: the drift must then be the uncredited
 * deposits alone, 0 at quiescence.
 */
export const LEDGER_BOOKS_GAS_AND_FLOAT = true;

/** Healthy steps (no outage or fee spike) a withdrawal or sweep may stay open without an operator alert. */
export const STALE_AFTER_HEALTHY_STEPS = 25;

export interface CheckEnv {
  database: Database;
  chain: SimChain;
  faults: ChainFaults;
  wallet: HdWallet;
  /** a client on the double that no fault reaches (the checks' own reads) */
  client: PublicClient;
  chainId: number;
  hot: Addr;
  depositor: Addr;
  /** the hot wallet and every deposit address (lowercase) */
  custody: Set<Addr>;
  /** network id -> its asset on chain */
  assets: Map<number, { contract: Addr | null; decimals: number }>;
  /** the float the hot wallet got at genesis, per network id, in base units */
  float: Map<number, bigint>;
}

const REFUNDED = new Set(['failed', 'cancelled', 'rejected']);

/** Each withdrawal paid at most once on chain, never paid and refunded; no hot-wallet payment Coffer did not record. */
export async function paidOnce(env: CheckEnv): Promise<string | null> {
  const rows = await env.database.sql.query<{
    tx_hash: string;
    withdrawal_id: string | null;
    sweep_id: string | null;
    status: string | null;
  }>(
    `select t.tx_hash, t.withdrawal_id::text, t.sweep_id::text, w.status from chain_txs t left join withdrawals w on w.id = t.withdrawal_id
     where t.chain_id = $1`,
    [env.chainId],
  );
  const byHash = new Map(rows.map((r) => [r.tx_hash.toLowerCase(), r]));
  const foreign = new Set([...env.faults.foreign.values()].map((t) => t.hash.toLowerCase()));
  const paid = new Map<string, number>();
  const swept = new Map<string, number>();
  for (const b of env.chain.blocks) {
    for (const m of b.txs) {
      if (!m.success) continue;
      const row = byHash.get(m.tx.hash.toLowerCase());
      if (m.tx.from === env.hot && !row && !foreign.has(m.tx.hash.toLowerCase())) {
        return `hot wallet transaction ${m.tx.hash} (nonce ${m.tx.nonce}, block ${b.number}) is in no chain_txs row`;
      }
      if (row?.withdrawal_id) {
        const n = (paid.get(row.withdrawal_id) ?? 0) + 1;
        paid.set(row.withdrawal_id, n);
        if (n > 1) return `withdrawal ${row.withdrawal_id} paid ${n} times on chain (latest ${m.tx.hash}, block ${b.number})`;
        if (row.status && REFUNDED.has(row.status)) {
          return `withdrawal ${row.withdrawal_id} is ${row.status} (refunded) yet paid on chain by ${m.tx.hash} in block ${b.number}`;
        }
      }
      if (row?.sweep_id && m.tx.from !== env.hot) {
        const n = (swept.get(row.sweep_id) ?? 0) + 1;
        swept.set(row.sweep_id, n);
        if (n > 1) return `sweep ${row.sweep_id} moved coins ${n} times on chain`;
      }
    }
  }
  return null;
}

/** Every hot-wallet nonce Coffer handed out is used by a recorded transaction (or a foreign one): no gaps. */
export async function noNonceGaps(env: CheckEnv): Promise<string | null> {
  const [row] = await env.database.sql.query<{ next: string | null; used: string[] | null }>(
    `select (select next_nonce::text from chain_nonces where chain_id = $1 and lower(address) = $2) as next,
            (select array_agg(distinct nonce::text) from chain_txs where chain_id = $1 and lower(from_address) = $2) as used`,
    [env.chainId, env.hot],
  );
  if (!row?.next) return null;
  const used = new Set((row.used ?? []).map(Number));
  for (const n of env.faults.foreign.keys()) used.add(n);
  for (let n = 0; n < Number(row.next); n++) {
    if (!used.has(n)) return `hot wallet nonce ${n} was handed out (next_nonce ${row.next}) but no transaction uses it: a gap`;
  }
  return null;
}

/** At most one open sweep per deposit address (two would move the same coins twice). */
export async function oneSweepPerAddress(env: CheckEnv): Promise<string | null> {
  const rows = await env.database.sql.query<{ address: string; n: number; ids: string }>(
    `select lower(deposit_address) as address, count(*)::int as n, string_agg(id::text, ',' order by id) as ids from sweeps
     where status not in ('done', 'failed') group by lower(deposit_address) having count(*) > 1`,
  );
  const r = rows[0];
  return r ? `double sweep: ${r.n} open sweeps (${r.ids}) of deposit address ${r.address}` : null;
}

/**
 * Holdings against the ledger through reconcile(): with gas and the float booked (decision
 * 038) its drift must be exactly zero after every step, save what a transaction Coffer did not
 * sign took out of custody (foreignLoss), which it must report to the wei. The older mode
 * (LEDGER_BOOKS_GAS_AND_FLOAT false) expected the unbooked float, gas and uncredited deposits.
 */
export async function holdingsMatchLedger(env: CheckEnv): Promise<string | null> {
  const report = await reconcile({
    database: env.database,
    client: env.client,
    wallet: env.wallet,
    chainId: env.chainId,
    openIncidents: false,
  });
  // reconcile reads the chain at B = the watcher's cursor when below the head: count to B only
  const [cursor] = await env.database.sql.query<{ b: string }>('select block_number::text as b from chain_cursors where chain_id = $1', [
    env.chainId,
  ]);
  const head = env.chain.blocks.length - 1;
  const upTo = Math.min(cursor ? Math.max(Number(cursor.b), 0) : head, head);
  const ours = new Set((await env.database.sql.query<{ h: string }>('select lower(tx_hash) as h from chain_txs')).map((r) => r.h as Addr));
  const credited = await env.database.sql.query<{ network_id: number; sum: string }>(
    `select network_id, coalesce(sum(amount), 0)::text as sum from deposits where status = 'credited' group by network_id`,
  );
  for (const row of report.rows) {
    const asset = env.assets.get(row.networkId);
    if (!asset) continue;
    const up = 10n ** BigInt(Math.max(18, asset.decimals) - asset.decimals);
    const creditedUnits = parseUnits(credited.find((c) => c.network_id === row.networkId)?.sum ?? '0', asset.decimals);
    const expected = LEDGER_BOOKS_GAS_AND_FLOAT
      ? foreignLoss(env, asset.contract, ours, upTo) * up
      : (unbookedDrift(env, row.networkId, asset.contract) - creditedUnits) * up;
    const drift = parseUnits(row.drift, Math.max(18, asset.decimals));
    if (drift !== expected) {
      const scale = Math.max(18, asset.decimals);
      return (
        `${row.code} holdings differ from the ledger: reconcile drift ${row.drift} (on chain ${row.onChain}, in flight ${row.inFlight}, ` +
        `owed ${row.owed}), expected ${formatUnits(expected, scale)}: off by ${formatUnits(drift - expected, scale)} ${row.code}`
      );
    }
  }
  return null;
}

/**
 * What custody holds that the ledger does not book: float - gas paid from custody addresses
 * (a foreign transaction with the hot key is custody's loss too) + every deposit mined so
 * far (the credited ones are subtracted by the caller).
 */
function unbookedDrift(env: CheckEnv, networkId: number, contract: Addr | null): bigint {
  const booked = LEDGER_BOOKS_GAS_AND_FLOAT;
  let total = booked ? 0n : (env.float.get(networkId) ?? 0n);
  for (const b of env.chain.blocks) {
    for (const m of b.txs) {
      if (contract === null) {
        if (!booked && env.custody.has(m.tx.from)) total -= m.gasUsed * m.tx.gasPrice;
        if (m.tx.from === env.depositor && m.success && m.tx.to && env.custody.has(m.tx.to)) total += m.tx.value;
      } else if (m.tx.from === env.depositor && m.success && m.tx.to === contract) {
        const t = tokenTransfer(m.tx.data);
        if (t && env.custody.has(t.to)) total += t.amount;
      }
    }
  }
  return total;
}

/**
 * With gas and the float booked (decision 038) reconcile's drift is exactly zero at every
 * step, except for what a transaction Coffer did not sign took out of custody (the fault
 * that uses the hot key): its gas, and for the native coin its value. That loss is real and
 * reconcile must report it to the wei.
 */
function foreignLoss(env: CheckEnv, contract: Addr | null, ours: ReadonlySet<Addr>, upTo: number): bigint {
  let loss = 0n;
  for (const b of env.chain.blocks) {
    if (b.number > upTo) break;
    for (const m of b.txs) {
      if (!env.custody.has(m.tx.from) || ours.has(m.tx.hash.toLowerCase() as Addr)) continue;
      if (contract === null) {
        loss -= m.gasUsed * m.tx.gasPrice;
        if (m.success && !(m.tx.to && env.custody.has(m.tx.to))) loss -= m.tx.value;
      } else if (m.success && m.tx.to === contract) {
        const t = tokenTransfer(m.tx.data);
        if (t && !env.custody.has(t.to)) loss -= t.amount;
      }
    }
  }
  return loss;
}

/** Open withdrawals and sweeps older than the limit (in healthy steps) have an operator alert: a wait reason or an open incident. */
export async function nothingStaleUnalerted(env: CheckEnv, openedAt: Map<string, number>, healthyStep: number): Promise<string | null> {
  const rows = await env.database.sql.query<{ key: string; alerted: boolean; status: string }>(
    `select 'withdrawal ' || w.id as key, w.status,
            (w.wait_reason is not null or exists (select 1 from chain_incidents i where i.resolved_at is null
               and (i.network_id = w.network_id or (i.network_id is null and i.chain_id = n.chain_id)))) as alerted
     from withdrawals w join networks n on n.id = w.network_id where w.status in ('queued', 'broadcast', 'confirming')
     union all
     select 'sweep ' || s.id, s.status, exists (select 1 from chain_incidents i where i.resolved_at is null and i.network_id = s.network_id)
     from sweeps s where s.status not in ('done', 'failed')`,
  );
  const open = new Set(rows.map((r) => r.key));
  for (const k of openedAt.keys()) if (!open.has(k)) openedAt.delete(k);
  for (const r of rows) {
    const since = openedAt.get(r.key) ?? healthyStep;
    openedAt.set(r.key, since);
    if (healthyStep - since > STALE_AFTER_HEALTHY_STEPS && !r.alerted) {
      return `${r.key} is still ${r.status} after ${healthyStep - since} healthy steps and no operator alert (wait reason or incident)`;
    }
  }
  return null;
}
