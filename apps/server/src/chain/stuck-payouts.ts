import { getAddress, type LocalAccount, type PublicClient } from 'viem';
import type { Database } from '../db/client.ts';
import { loadFeePolicies } from './fee-policy.ts';
import { replacementPrice } from './replace.ts';
import {
  broadcast,
  CHAIN_TX_COLUMNS,
  type ChainTx,
  type ChainTxRow,
  inTransaction,
  noteBroadcast,
  type Query,
  receiptsOf,
  recordChainTx,
  toChainTx,
} from './txs.ts';

/**
 * An operator's two ways out for a payout stuck past its limits (docs/decisions/037), each
 * audited by the caller in the same transaction (`audit`):
 *  - cancelOnChain: replace its nonce with a zero-value transfer from the hot wallet to
 *    itself at a higher price. Nothing is refunded here: the sender refunds once that
 *    replacement is mined and final (before, the original could still be mined, and pays).
 *  - failUnmineable: refund now, allowed only when no attempt can be mined any more (the
 *    hot wallet's nonce was consumed at least `confirmations` deep and no attempt has a receipt).
 * Refusals are StuckPayoutRefusal (the route turns them into its error codes).
 */

export type StuckRefusal = 'not_found' | 'not_broadcast' | 'other_chain' | 'cap_reached' | 'still_mineable';
export class StuckPayoutRefusal extends Error {
  constructor(readonly refusal: StuckRefusal) {
    super(`stuck payout action refused: ${refusal}`);
  }
}

export interface StuckPayoutDeps {
  database: Database;
  client: PublicClient;
  hot: LocalAccount;
  chainId: number;
}

interface Stuck {
  networkId: number;
  nonce: number;
  confirmations: number;
  attempts: ChainTx[];
}

async function loadStuck(deps: StuckPayoutDeps, id: number): Promise<Stuck> {
  const [w] = await deps.database.sql.query<{
    status: string;
    network_id: number;
    nonce: string | null;
    chain_id: number;
    confirmations: number;
  }>(
    `select w.status, w.network_id, w.nonce::text as nonce, n.chain_id, n.confirmations
     from withdrawals w join networks n on n.id = w.network_id where w.id = $1`,
    [id],
  );
  if (!w) throw new StuckPayoutRefusal('not_found');
  if (w.chain_id !== deps.chainId) throw new StuckPayoutRefusal('other_chain');
  if (w.status !== 'broadcast' || w.nonce === null) throw new StuckPayoutRefusal('not_broadcast');
  const rows = await deps.database.sql.query<ChainTxRow>(
    `select ${CHAIN_TX_COLUMNS} from chain_txs t where t.withdrawal_id = $1 order by t.id`,
    [id],
  );
  return { networkId: w.network_id, nonce: Number(w.nonce), confirmations: w.confirmations, attempts: rows.map(toChainTx) };
}

/** Locks the withdrawal; true when it is still broadcast with `hash` as its latest attempt. */
async function stillAt(q: Query, id: number, hash: string): Promise<boolean> {
  const [w] = await q<{ status: string; tx_hash: string | null }>('select status, tx_hash from withdrawals where id = $1 for update', [id]);
  return w?.status === 'broadcast' && w.tx_hash === hash;
}

export type Audit = (q: Query, before: object, after: object) => Promise<unknown>;

export async function cancelOnChain(deps: StuckPayoutDeps, id: number, audit: Audit): Promise<{ txHash: string; gasPrice: string }> {
  const stuck = await loadStuck(deps, id);
  const latest = stuck.attempts[stuck.attempts.length - 1];
  if (!latest) throw new StuckPayoutRefusal('not_broadcast');
  const policy = (await loadFeePolicies(deps.database, deps.chainId)).get(stuck.networkId);
  const price = replacementPrice(latest.gasPrice, await deps.client.getGasPrice(), policy?.capWei ?? null);
  if (price === null || !policy?.payable) throw new StuckPayoutRefusal('cap_reached');
  const hot = getAddress(deps.hot.address);
  const raw = await deps.hot.signTransaction({
    type: 'legacy',
    chainId: deps.chainId,
    nonce: stuck.nonce,
    to: hot,
    value: 0n,
    gas: 21_000n,
    gasPrice: price,
  });
  const stored = await inTransaction(deps.database, async (q) => {
    if (!(await stillAt(q, id, latest.hash))) throw new StuckPayoutRefusal('not_broadcast');
    const hash = await recordChainTx(q, {
      chainId: deps.chainId,
      purpose: 'withdrawal',
      withdrawalId: id,
      from: hot,
      nonce: stuck.nonce,
      raw,
      gasPrice: price,
      sentHead: null,
      cancel: true,
    });
    await q('update withdrawals set tx_hash = $2, updated_at = now() where id = $1', [id, hash]);
    await audit(
      q,
      { status: 'broadcast', txHash: latest.hash, gasPrice: latest.gasPrice.toString() },
      { status: 'broadcast', txHash: hash, gasPrice: price.toString(), cancel: true },
    );
    const [row] = await q<{ id: number | string }>('select id from chain_txs where chain_id = $1 and tx_hash = $2', [deps.chainId, hash]);
    return { hash, attemptId: Number(row?.id) };
  });
  await noteBroadcast(deps.database, stored.attemptId, await broadcast(deps.client, raw));
  return { txHash: stored.hash, gasPrice: price.toString() };
}

export async function failUnmineable(deps: StuckPayoutDeps, id: number, reason: string, actor: number | null, audit: Audit): Promise<void> {
  const stuck = await loadStuck(deps, id);
  const head = await deps.client.getBlockNumber();
  const depth = head - BigInt(stuck.confirmations) + 1n;
  const consumed = depth >= 0n ? await deps.client.getTransactionCount({ address: getAddress(deps.hot.address), blockNumber: depth }) : 0;
  const receipts = await receiptsOf(deps.client, stuck.attempts);
  const anyMined = [...receipts.values()].some((r) => r !== null);
  if (consumed <= stuck.nonce || anyMined) throw new StuckPayoutRefusal('still_mineable');
  const latest = stuck.attempts[stuck.attempts.length - 1];
  await inTransaction(deps.database, async (q) => {
    if (!latest || !(await stillAt(q, id, latest.hash))) throw new StuckPayoutRefusal('not_broadcast');
    for (const a of stuck.attempts) await q(`update chain_txs set status = 'replaced' where id = $1`, [a.id]);
    await q(`select coffer_withdraw_refund($1, 'failed', $2, '{broadcast}', $3)`, [id, reason, actor]);
    await audit(q, { status: 'broadcast', nonce: stuck.nonce }, { status: 'failed', refunded: true });
  });
}
