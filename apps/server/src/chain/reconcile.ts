import { type ReconcileData, trimDecimal } from '@coffer/contract';
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, type PublicClient, parseUnits } from 'viem';
import type { Database } from '../db/client.ts';
import type { HdWallet } from './keys.ts';
import { type ChainLog, receiptOf, silentChainLog } from './txs.ts';

export interface ReconcileOptions {
  database: Database;
  /** viem public client on the chain, with cacheTime 0 (and JSON-RPC batching: createEvmClient) */
  client: PublicClient;
  wallet: HdWallet;
  chainId: number;
  /** open a 'reconcile_drift' incident (payouts freeze) for a network that is not ok; default true */
  openIncidents?: boolean;
  log?: ChainLog;
  /** balance reads in flight at once; default 500 (the transport batches them, 100 per request) */
  concurrency?: number;
}

interface NetworkRow {
  id: number;
  name: string;
  code: string;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  cold_address: string | null;
  owed: string;
  /** what the currency's other networks booked against the world account */
  owed_elsewhere: string;
  float: string;
  /** withdrawals settled in the ledger whose transaction was mined after the block */
  settled_after: string;
  /** deposits on chain at or below the block, not yet credited or booked */
  inbound_before: string;
  /** deposits credited or booked whose block is after the block */
  booked_after: string;
  /** gas booked for transactions mined after the block (native network) */
  gas_after: string;
  flight: unknown;
}

interface FlightItem {
  amount: string;
  hashes: string[] | null;
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const show = (units: bigint, scale: number) => trimDecimal(formatUnits(units, scale));

/**
 * What the ledger booked against the world account for network o: deposits credited, deposits
 * below the minimum and fundings booked to the float, less withdrawals settled, gas booked and
 * UTXO miner fees (the SQL functions that post to the world account, each recording its network).
 */
export const BOOKED_ON_NETWORK = `(
  coalesce((select sum(d.amount) from deposits d where d.network_id = o.id
     and (d.status = 'credited' or exists (select 1 from deposit_unclaimed u where u.deposit_id = d.id))), 0)
  + coalesce((select sum(f.amount) from chain_fundings f where f.network_id = o.id), 0)
  - coalesce((select sum(w.amount) from withdrawals w where w.network_id = o.id and w.status = 'completed'), 0)
  - coalesce((select sum(g.amount) from chain_gas g where g.network_id = o.id), 0)
  - coalesce((select sum(f.amount) from utxo_fees f where f.network_id = o.id), 0))`;

const NETWORKS_SQL = `select n.id, n.name, c.code, n.native, n.contract, n.token_decimals, n.cold_address,
  (select (-coalesce(sum(a.balance), 0))::text from accounts a
   where a.currency_id = n.currency_id and a.user_id is null and a.kind = 'world') as owed,
  (select coalesce(sum(a.balance), 0)::text from accounts a where a.currency_id = n.currency_id and a.kind = 'float') as float,
  (select coalesce(sum(${BOOKED_ON_NETWORK}), 0)::text from networks o where o.currency_id = n.currency_id and o.id <> n.id) as owed_elsewhere,
  (select coalesce(sum(w.amount), 0)::text from withdrawals w
   where w.network_id = n.id and w.status = 'completed' and w.block_number > $2) as settled_after,
  (select coalesce(sum(d.amount), 0)::text from deposits d
   where d.network_id = n.id and d.block_number <= $2 and (d.status = 'pending'
     or (d.status = 'below_minimum' and not exists (select 1 from deposit_unclaimed u where u.deposit_id = d.id)))) as inbound_before,
  (select coalesce(sum(d.amount), 0)::text from deposits d
   where d.network_id = n.id and d.block_number > $2 and (d.status = 'credited'
     or exists (select 1 from deposit_unclaimed u where u.deposit_id = d.id))) as booked_after,
  (select coalesce(sum(g.amount), 0)::text from chain_gas g where g.network_id = n.id and g.block_number > $2) as gas_after,
  (select coalesce(json_agg(json_build_object('amount', w.amount::text,
             'hashes', (select json_agg(t.tx_hash order by t.id) from chain_txs t where t.withdrawal_id = w.id))
           order by w.id), '[]'::json)
   from withdrawals w where w.network_id = n.id and w.status in ('broadcast', 'confirming')) as flight
  from networks n join currencies c on c.id = n.currency_id
  where n.chain_id = $1 and (n.native or n.contract is not null)
  order by n.sort, n.id`;

/**
 * Compares, per network of the chain, what Coffer holds on chain with the ledger's custody
 * total, for equality to the last base unit (docs/decisions/038; fail closed):
 *
 *   holdings = hot + cold + deposit addresses, all read at one block B
 *            + outbound in flight: withdrawals mined successfully at or below B, not yet
 *              settled (minus settled ones mined after B)
 *            + gas mined at or below B, not yet booked (minus gas booked for transactions
 *              mined after B); native network only: gas is paid in the native coin
 *            - inbound: deposits at or below B not yet credited (or, below the minimum, not
 *              yet booked to the float) (minus credited ones after B)
 *   owed     = the ledger's custody total: minus the world account's balance, i.e. every
 *              deposit credited, funding and deposit below the minimum booked, less every
 *              withdrawal settled and gas booked. It is what custody must hold whoever owns
 *              it inside the ledger (users, fees, the float, the swap house, prize pools):
 *              moves between those accounts (swaps, transfers, fees, adjustments) change no
 *              coin on chain and no world balance, so they are never a drift. Whether the
 *              coins cover what users hold (the house's exposure, adjustments credited
 *              without coins) is solvency, read on the console, not custody.
 *   drift    = holdings - owed, which must be 0.
 *
 * B is the watcher's cursor when it is below the head, so every deposit at or below B is in
 * the deposits table. Any difference, either sign, opens a 'reconcile_drift' incident for the
 * network (unless openIncidents is false), which freezes its payouts (chain_payouts_frozen)
 * until an operator resolves it. A positive drift is coins nobody is known to own (a
 * stranger's transfer to the hot wallet until the operator books it with chain:fund), or a
 * booking missing; a negative one is a loss. The world account is the currency's, over all
 * its networks: a network's `owed` is that total less what the currency's other networks
 * booked (BOOKED_ON_NETWORK), so each chain is reconciled on its own and a ledger total that
 * disagrees with the networks' bookings shows as drift on the currency's networks
 * (docs/decisions/050-several-networks.md).
 */
export async function reconcile(opts: ReconcileOptions): Promise<ReconcileData> {
  const { database, client, wallet, chainId } = opts;
  const limit = opts.concurrency ?? 500;

  // chain first, then the database; every ledger effect is then placed before or after B by
  // its block, so whatever happens between the two reads is counted on the right side
  const head = await client.getBlockNumber();
  const [cursor] = await database.sql.query<{ b: string }>('select block_number::text as b from chain_cursors where chain_id = $1', [
    chainId,
  ]);
  // a watcher that started on a new chain and has not scanned yet (cursor -1) has seen nothing past genesis
  const scanned = cursor ? (BigInt(cursor.b) < 0n ? 0n : BigInt(cursor.b)) : head;
  const block = scanned < head ? scanned : head;
  const [networks, addressRows] = await Promise.all([
    database.sql.query<NetworkRow>(NETWORKS_SQL, [chainId, block.toString()]),
    database.sql.query<{ address: string }>('select address from deposit_addresses where chain_id = $1 order by id', [chainId]),
  ]);
  const hot = wallet.hotAddress;
  const deposits: Address[] = addressRows.map((r) => getAddress(r.address));
  const gasUnbooked = await unbookedGas(database, client, chainId, block, limit);

  const rows: ReconcileData['rows'] = [];
  for (const n of networks) {
    const scale = Math.max(18, n.token_decimals);
    const up = 10n ** BigInt(scale - n.token_decimals);
    const contract = n.contract ? getAddress(n.contract) : null;
    const balanceOf = (address: Address) =>
      n.native || !contract
        ? client.getBalance({ address, blockNumber: block })
        : client.readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber: block });
    const [hotUnits, coldUnits] = await Promise.all([balanceOf(hot), n.cold_address ? balanceOf(getAddress(n.cold_address)) : 0n]);
    const depositUnits = (await mapLimit(deposits, limit, balanceOf)).reduce((a, b) => a + b, 0n);
    const onChain = (hotUnits + coldUnits + depositUnits) * up;
    const units = (x: string) => parseUnits(x, scale);

    const inFlight = (await outbound(client, n.flight, block, scale, limit)) - units(n.settled_after);
    const gas = n.native ? gasUnbooked * up - units(n.gas_after) : 0n;
    const inbound = units(n.inbound_before) - units(n.booked_after);
    // the ledger's total for the currency, less what its other networks (other chains) account for
    const owed = units(n.owed) - units(n.owed_elsewhere);
    const drift = onChain + inFlight + gas - inbound - owed;
    const row = {
      networkId: n.id,
      code: n.code,
      networkName: n.name,
      block: block.toString(),
      hot: show(hotUnits * up, scale),
      cold: show(coldUnits * up, scale),
      depositAddresses: show(depositUnits * up, scale),
      onChain: show(onChain, scale),
      inFlight: show(inFlight, scale),
      gasUnbooked: show(gas, scale),
      inbound: show(inbound, scale),
      owed: show(owed, scale),
      float: trimDecimal(n.float),
      drift: show(drift, scale),
      ok: drift === 0n,
    };
    rows.push(row);
    await keepSnapshot(database, row);
    if (!row.ok) await reportDrift(opts, n, row, deposits.length);
  }
  return { ok: rows.every((r) => r.ok), rows };
}

/** Withdrawals of one network whose transaction (any attempt) is mined successfully at or below `block`. */
async function outbound(client: PublicClient, flightJson: unknown, block: bigint, scale: number, limit: number): Promise<bigint> {
  const flight = (typeof flightJson === 'string' ? JSON.parse(flightJson) : flightJson) as FlightItem[];
  const hashes = flight.flatMap((f) => f.hashes ?? []);
  const receipts = await mapLimit(hashes, limit, (hash) => receiptOf(client, hash as Hex));
  const left = new Set(hashes.filter((_, i) => receipts[i]?.status === 'success' && (receipts[i]?.blockNumber ?? block + 1n) <= block));
  let total = 0n;
  for (const f of flight) if ((f.hashes ?? []).some((h) => left.has(h))) total += parseUnits(f.amount, scale);
  return total;
}

/**
 * Gas (wei) of the chain's transactions mined at or below `block` and not yet booked: every
 * attempt without a chain_gas row except those marked replaced (a nonce's other attempts are
 * marked replaced only once one of them is mined). Its status may lag the chain, so the
 * receipt decides.
 */
async function unbookedGas(database: Database, client: PublicClient, chainId: number, block: bigint, limit: number): Promise<bigint> {
  const txs = await database.sql.query<{ tx_hash: string }>(
    `select t.tx_hash from chain_txs t where t.chain_id = $1 and t.status <> 'replaced'
     and not exists (select 1 from chain_gas g where g.chain_tx_id = t.id) order by t.id`,
    [chainId],
  );
  const receipts = await mapLimit(txs, limit, (t) => receiptOf(client, t.tx_hash as Hex));
  let wei = 0n;
  for (const r of receipts) if (r && r.blockNumber <= block) wei += r.gasUsed * r.effectiveGasPrice;
  return wei;
}

/** The latest figures per network, for the console's dashboard. */
export async function keepSnapshot(database: Database, row: ReconcileData['rows'][number]): Promise<void> {
  await database.sql.query(
    `insert into reconcile_snapshots (network_id, block_number, hot, cold, deposit_addresses, float, drift, ok, taken_at)
     values ($1, $2, $3::numeric, $4::numeric, $5::numeric, $6::numeric, $7::numeric, $8, now())
     on conflict (network_id) do update set block_number = excluded.block_number, hot = excluded.hot, cold = excluded.cold,
       deposit_addresses = excluded.deposit_addresses, float = excluded.float, drift = excluded.drift, ok = excluded.ok,
       taken_at = excluded.taken_at`,
    [row.networkId, row.block, row.hot, row.cold, row.depositAddresses, row.float, row.drift, row.ok],
  );
}

async function reportDrift(opts: ReconcileOptions, n: NetworkRow, row: ReconcileData['rows'][number], addresses: number) {
  const log = opts.log ?? silentChainLog;
  const detail =
    `reconcile at block ${row.block}: hot ${row.hot} + cold ${row.cold} + ${addresses} deposit addresses ${row.depositAddresses} ${n.code}` +
    ` + in flight ${row.inFlight} + gas unbooked ${row.gasUnbooked} - inbound ${row.inbound}` +
    ` <> custody total ${row.owed} (deposits credited and fundings less withdrawals settled and gas; float ${row.float}): drift ${row.drift}`;
  log.error({ network: n.id, code: n.code, onChain: row.onChain, owed: row.owed, drift: row.drift }, 'reconciliation drift');
  if (opts.openIncidents === false) return;
  const opened = await opts.database.sql.query<{ id: number }>(
    `insert into chain_incidents (network_id, chain_id, kind, detail)
     select $1, $2, 'reconcile_drift', $3
     where not exists (select 1 from chain_incidents where network_id = $1 and kind = 'reconcile_drift' and resolved_at is null)
     returning id`,
    [n.id, opts.chainId, detail],
  );
  if (opened.length > 0) log.error({ network: n.id, incident: opened[0]?.id }, 'payouts frozen: reconcile_drift incident opened');
}
