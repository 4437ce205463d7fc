import { type ReconcileData, trimDecimal } from '@coffer/contract';
import { parseUnits } from 'viem';
import type { Database } from '../../db/client.ts';
import { BOOKED_ON_NETWORK, keepSnapshot } from '../reconcile.ts';
import { type ChainLog, silentChainLog } from '../txs.ts';
import type { UtxoParams } from './params.ts';
import { fromBaseUnits, type RpcValue, toBaseUnits, type UtxoRpc } from './rpc.ts';

/** Decimal places of the ledger's amounts (numeric(38, 18)). */
const LEDGER_SCALE = 18;
/** Outpoints asked of the node per JSON-RPC batch (gettxout each). */
export const RECONCILE_OUTPOINTS_PER_BATCH = 500;

interface OutputRow {
  txid: string;
  vout: number;
  value: string;
  state: 'available' | 'reserved';
  open_batch: boolean;
}

/**
 * Reconciles a UTXO network exactly (docs/decisions/051-utxo-payouts.md): what custody holds
 * is the network's outputs in utxo_outputs, available or reserved by an open batch, and each
 * must be where the table says: an available one unspent on the node with its value to the
 * base unit; a reserved one unspent or spent by its batch's transaction (in flight: the
 * ledger settles it at N confirmations). Their sum must equal the ledger's custody total for
 * the network (deposits credited less withdrawals settled and miner fees, as on an EVM chain).
 * An output the node does not have, a value that differs, or a sum that differs opens a
 * 'reconcile_drift' incident, which freezes the network's payouts.
 */
export async function reconcileUtxo(opts: {
  database: Database;
  rpc: UtxoRpc;
  params: UtxoParams;
  log?: ChainLog;
  openIncidents?: boolean;
}): Promise<ReconcileData> {
  const { database, rpc, params } = opts;
  const log = opts.log ?? silentChainLog;
  const nets = await database.sql.query<{ id: number; name: string; code: string; owed: string; owed_elsewhere: string; float: string }>(
    `select n.id, n.name, c.code,
       (select (-coalesce(sum(a.balance), 0))::text from accounts a
         where a.currency_id = n.currency_id and a.user_id is null and a.kind = 'world') as owed,
       (select coalesce(sum(${BOOKED_ON_NETWORK}), 0)::text from networks o where o.currency_id = n.currency_id and o.id <> n.id) as owed_elsewhere,
       (select coalesce(sum(a.balance), 0)::text from accounts a where a.network_id = n.id) as float
     from networks n join currencies c on c.id = n.currency_id where n.chain_id = $1 and n.family = 'utxo' order by n.id`,
    [params.chainId],
  );
  const head = String(await rpc.call('getblockcount'));
  const rows: ReconcileData['rows'] = [];
  for (const n of nets) {
    const outputs = await database.sql.query<OutputRow>(
      `select o.txid, o.vout, o.value::text as value, o.state,
              coalesce((select b.status <> 'completed' from utxo_batches b where b.id = o.batch_id), false) as open_batch
         from utxo_outputs o where o.network_id = $1 and o.state in ('available', 'reserved') order by o.id`,
      [n.id],
    );
    const { available, inFlight, missing } = await verifyOutputs(rpc, outputs);
    const scale = 8;
    // the ledger's numeric(38, 18) at the coin's 8 places: a remainder below a litoshi is drift too
    const ledgerUnits = (x: string) => parseUnits(x, LEDGER_SCALE);
    const owedExact = ledgerUnits(n.owed) - ledgerUnits(n.owed_elsewhere);
    const perUnit = 10n ** BigInt(LEDGER_SCALE - scale);
    const owed = owedExact / perUnit;
    const belowUnit = owedExact % perUnit !== 0n;
    const drift = available + inFlight - owed;
    const show = (v: bigint) => (v < 0n ? '-' : '') + trimDecimal(fromBaseUnits(v < 0n ? -v : v, scale));
    const row = {
      networkId: n.id,
      code: n.code,
      networkName: n.name,
      block: head,
      hot: show(available),
      cold: '0',
      depositAddresses: '0',
      onChain: show(available),
      inFlight: show(inFlight),
      gasUnbooked: '0',
      inbound: '0',
      owed: show(owed),
      float: trimDecimal(n.float),
      drift: show(drift),
      ok: drift === 0n && !belowUnit && missing.length === 0,
    };
    rows.push(row);
    await keepSnapshot(database, row);
    if (!row.ok) {
      const detail =
        `reconcile at block ${head}: outputs ${row.onChain} + in flight ${row.inFlight} ${n.code} <> custody total ${row.owed}` +
        ` (drift ${row.drift})${missing.length > 0 ? `; not on the node as recorded: ${missing.slice(0, 5).join(', ')}` : ''}`;
      log.error({ network: n.id, code: n.code, drift: row.drift, missing: missing.length }, 'reconciliation drift');
      if (opts.openIncidents !== false) {
        await database.sql.query(
          `insert into chain_incidents (network_id, chain_id, kind, detail)
           select $1, $2, 'reconcile_drift', $3
           where not exists (select 1 from chain_incidents where network_id = $1 and kind = 'reconcile_drift' and resolved_at is null)`,
          [n.id, params.chainId, detail],
        );
      }
    }
  }
  return { ok: rows.every((r) => r.ok), rows };
}

/** Each output against the node (gettxout, the mempool counted): the available sum, the in-flight sum, and what is not where it should be. */
async function verifyOutputs(rpc: UtxoRpc, outputs: OutputRow[]) {
  let available = 0n;
  let inFlight = 0n;
  const missing: string[] = [];
  for (let i = 0; i < outputs.length; i += RECONCILE_OUTPOINTS_PER_BATCH) {
    const part = outputs.slice(i, i + RECONCILE_OUTPOINTS_PER_BATCH);
    const found = await rpc.batch(part.map((o) => ({ method: 'gettxout', params: [o.txid, o.vout, true] })));
    part.forEach((o, j) => {
      const out = found[j] as { value?: RpcValue } | null;
      const value = BigInt(o.value);
      // spent in the mempool or a block by its open batch: in flight until the batch settles
      if (o.state === 'reserved' && o.open_batch && (out === null || out === undefined)) {
        inFlight += value;
        return;
      }
      if (!out || out.value === undefined || toBaseUnits(out.value) !== value) {
        missing.push(`${o.txid}:${o.vout}`);
        return;
      }
      if (o.state === 'reserved') inFlight += value;
      else available += value;
    });
  }
  return { available, inFlight, missing };
}
