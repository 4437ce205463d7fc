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
  /** how far below zero a drift may go before it counts (decimal, in the currency's unit); default '0' */
  tolerance?: string;
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
  owed: string;
  flight: unknown;
}

interface FlightItem {
  id: number;
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
 * Compares, per network of the chain, what Coffer holds on chain with what it owes
 * (DESIGN §7; fail closed, unlike Blink's gauges, which only alert):
 *
 *   onChain  = hot wallet + every deposit address of the chain (native balance or token
 *              balanceOf), all read at one block B;
 *   inFlight = withdrawals whose transaction is mined successfully at or below B but not yet
 *              settled in the ledger ('broadcast'/'confirming'): the coins left the chain, the
 *              ledger still holds them in the user's frozen balance;
 *   owed     = every user's available + frozen balance in the currency, plus the fees account:
 *              fees are Coffer's own revenue, but they were paid in and are still on chain, so
 *              a shortfall there is a loss as real as one in user funds. Not counted: house
 *              (the swap book; what users gained or lost through it is already in their
 *              balances), world and adjustments (mirrors of money in and out);
 *   drift    = onChain + inFlight - owed. Negative: Coffer holds less than it owes.
 *
 * Positive drift is expected: the operator's float in the hot wallet, deposits not yet
 * credited, the ETH left over from gas top-ups. Gas is paid in ETH out of custody and is not
 * booked in the ledger, so the ETH drift shrinks by every fee paid (the float covers it).
 * `owed` is the currency's total over all its networks: a currency with networks on several
 * chains must be reconciled across them (not done here).
 *
 * A row with drift < -tolerance is not ok; then (unless openIncidents is false) a
 * 'reconcile_drift' incident is opened for its network if none is open, which freezes its
 * payouts (chain_payouts_frozen) until an operator resolves it.
 */
export async function reconcile(opts: ReconcileOptions): Promise<ReconcileData> {
  const { database, client, wallet, chainId } = opts;
  const log = opts.log ?? silentChainLog;
  const tolerance = opts.tolerance ?? '0';
  if (!/^\d+(\.\d+)?$/.test(tolerance)) throw new Error(`tolerance must be a non-negative decimal, got ${tolerance}`);

  // chain first, then the database: whatever the ledger shows as settled or credited
  // happened on chain before it was read (see the note on in-flight withdrawals above)
  const block = await client.getBlockNumber();
  const [networks, addressRows] = await Promise.all([
    database.sql.query<NetworkRow>(
      `select n.id, n.name, c.code, n.native, n.contract, n.token_decimals,
              (select coalesce(sum(a.balance), 0)::text from accounts a
               where a.currency_id = n.currency_id and (a.user_id is not null or a.kind = 'fees')) as owed,
              (select coalesce(json_agg(json_build_object('id', w.id, 'amount', w.amount::text,
                         'hashes', (select json_agg(t.tx_hash order by t.id) from chain_txs t where t.withdrawal_id = w.id))
                       order by w.id), '[]'::json)
               from withdrawals w where w.network_id = n.id and w.status in ('broadcast', 'confirming')) as flight
       from networks n join currencies c on c.id = n.currency_id
       where n.chain_id = $1 and (n.native or n.contract is not null)
       order by n.sort, n.id`,
      [chainId],
    ),
    database.sql.query<{ address: string }>('select address from deposit_addresses where chain_id = $1 order by id', [chainId]),
  ]);
  const addresses: Address[] = [wallet.hotAccount().address, ...addressRows.map((r) => getAddress(r.address))];
  const limit = opts.concurrency ?? 500;

  const rows: ReconcileData['rows'] = [];
  for (const n of networks) {
    const scale = Math.max(18, n.token_decimals);
    const up = 10n ** BigInt(scale - n.token_decimals);
    const contract = n.contract ? getAddress(n.contract) : null;
    const balances = await mapLimit(addresses, limit, (address) =>
      n.native || !contract
        ? client.getBalance({ address, blockNumber: block })
        : client.readContract({ address: contract, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber: block }),
    );
    const onChain = balances.reduce((a, b) => a + b, 0n) * up;

    const flight = (typeof n.flight === 'string' ? JSON.parse(n.flight) : n.flight) as FlightItem[];
    const hashes = flight.flatMap((f) => f.hashes ?? []);
    const receipts = await mapLimit(hashes, limit, (hash) => receiptOf(client, hash as Hex));
    const left = new Set(
      hashes.filter((_, i) => {
        const r = receipts[i];
        return r !== null && r !== undefined && r.status === 'success' && r.blockNumber <= block;
      }),
    );
    let inFlight = 0n;
    for (const f of flight) {
      if ((f.hashes ?? []).some((h) => left.has(h))) inFlight += parseUnits(f.amount, scale);
    }

    const owed = parseUnits(n.owed, scale);
    const drift = onChain + inFlight - owed;
    const tol = parseUnits(tolerance, scale);
    const ok = drift >= -tol;
    const row = {
      networkId: n.id,
      code: n.code,
      networkName: n.name,
      onChain: show(onChain, scale),
      inFlight: show(inFlight, scale),
      owed: show(owed, scale),
      drift: show(drift, scale),
      tolerance: trimDecimal(tolerance),
      ok,
    };
    rows.push(row);
    if (!ok) {
      const detail =
        `reconcile at block ${block}: on chain ${row.onChain} ${n.code} (hot wallet + ${addresses.length - 1} deposit addresses)` +
        ` + in flight ${row.inFlight} < owed ${row.owed} (users' available + frozen + fees): drift ${row.drift}, tolerance ${row.tolerance}`;
      log.error(
        { network: n.id, code: n.code, onChain: row.onChain, inFlight: row.inFlight, owed: row.owed, drift: row.drift },
        'reconciliation drift',
      );
      if (opts.openIncidents !== false) {
        const opened = await database.sql.query<{ id: number }>(
          `insert into chain_incidents (network_id, chain_id, kind, detail)
           select $1, $2, 'reconcile_drift', $3
           where not exists (select 1 from chain_incidents where network_id = $1 and kind = 'reconcile_drift' and resolved_at is null)
           returning id`,
          [n.id, chainId, detail],
        );
        if (opened.length > 0) log.error({ network: n.id, incident: opened[0]?.id }, 'payouts frozen: reconcile_drift incident opened');
      }
    }
  }
  return { ok: rows.every((r) => r.ok), rows };
}
