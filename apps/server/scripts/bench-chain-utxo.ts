// The UTXO part of npm run bench:chain: the real DepositWatcher over UtxoChainAdapter on a
// throw-away litecoind regtest node and a fresh database. Builds UTXO_BLOCKS blocks with
// UTXO_PAYMENTS_PER_BLOCK payments each to derived deposit addresses, then lets the watcher
// catch up from its stored cursor to the tip (deposits recorded and credited at the network's
// confirmations). Reference in the same run: the raw scan (UtxoChainAdapter.scanDeposits
// over the same blocks, no database). Skipped with a message when litecoind is not installed.
import { UtxoChainAdapter } from '../src/chain/utxo/adapter.ts';
import { utxoAccountXpub } from '../src/chain/utxo/address.ts';
import { UTXO_NETWORKS } from '../src/chain/utxo/params.ts';
import { REGTEST_PACKAGE, type RegtestNode, regtestBinary, startRegtest } from '../src/chain/utxo/regtest.ts';
import { DepositWatcher } from '../src/chain/watcher.ts';
import type { Database } from '../src/db/client.ts';
import { auditLedger } from '../src/ledger/audit.ts';

const UTXO_BLOCKS = 200;
const UTXO_PAYMENTS_PER_BLOCK = 5;
/** Deposit addresses paid in turn: each receives UTXO_BLOCKS * UTXO_PAYMENTS_PER_BLOCK / this payments. */
const UTXO_ADDRESSES = 200;
const UTXO_PAYMENT = '0.01';
const params = UTXO_NETWORKS['litecoin-regtest'];
// A bench seed: the deposit addresses derived from it hold regtest coins only.
const BENCH_SEED = new Uint8Array(64).fill(7);

/** One deposit address per bench user, derived by the adapter as the server derives them. */
async function watchedAddresses(database: Database, adapter: UtxoChainAdapter): Promise<string[]> {
  await database.sql.query(
    `insert into users (email, password_hash, nickname) select 'utxo' || i || '@bench.coffer', 'x', 'utxo' || i from generate_series(1, $1) i`,
    [UTXO_ADDRESSES],
  );
  const users = await database.sql.query<{ id: number }>(`select id from users where email like 'utxo%@bench.coffer' order by id`);
  const addresses = users.map((_, i) => adapter.deriveDepositAddress(i + 1));
  await database.sql.query(
    `insert into deposit_addresses (user_id, chain_id, address_index, address)
     select u, $4, i, a from unnest($1::bigint[], $2::int[], $3::text[]) as x(u, i, a)`,
    [users.map((u) => u.id), users.map((_, i) => i + 1), addresses, params.chainId],
  );
  return addresses;
}

/** Mines the blocks with their payments, then the confirmations the last payments need. */
async function buildBlocks(node: RegtestNode, addresses: string[], confirmations: number): Promise<number> {
  let paid = 0;
  for (let b = 0; b < UTXO_BLOCKS; b++) {
    for (let k = 0; k < UTXO_PAYMENTS_PER_BLOCK; k++) await node.send(addresses[paid++ % addresses.length]!, UTXO_PAYMENT);
    await node.mine(1);
  }
  await node.mine(confirmations);
  return paid;
}

async function catchUp(database: Database, adapter: UtxoChainAdapter) {
  const watcher = new DepositWatcher(database, adapter, params.chainId);
  const t = performance.now();
  const ms = { scan: 0, credit: 0 };
  for (;;) {
    const r = await watcher.tick();
    ms.scan += r.ms.scan;
    ms.credit += r.ms.credit;
    if (!r.scanned) break;
  }
  return { ms: performance.now() - t, ...ms };
}

/** Runs the UTXO bench on a database of its own; false when the exactly-once check fails. */
export async function benchUtxoWatcher(openDatabase: () => Promise<Database>): Promise<boolean> {
  if (!regtestBinary()) {
    console.log(`\nUTXO watcher: skipped, litecoind is not on the PATH (install the Debian package "${REGTEST_PACKAGE}")`);
    return true;
  }
  const node = await startRegtest();
  const database = await openDatabase();
  try {
    const adapter = new UtxoChainAdapter(node.rpc, params, utxoAccountXpub(BENCH_SEED, params));
    const [net] = await database.sql.query<{ id: number; confirmations: number }>(
      `update networks set deposit_enabled = true where chain_id = $1 and family = 'utxo' returning id, confirmations`,
      [params.chainId],
    );
    const addresses = await watchedAddresses(database, adapter);
    // Mature coinbases enough for every block's payments to spend confirmed coins (before the
    // cursor: the measured range holds the payments' blocks and their confirmations only).
    await node.mine(Math.ceil(UTXO_BLOCKS / 10));
    // The first tick stores the cursor at the tip: the catch-up starts from it, as a server does.
    await new DepositWatcher(database, adapter, params.chainId).tick();
    const from = Number((await adapter.head()).number) + 1;
    const t0 = performance.now();
    const paid = await buildBlocks(node, addresses, net!.confirmations);
    const to = Number((await adapter.head()).number);
    const blocks = to - from + 1;
    console.log(`\nUTXO: built ${blocks} blocks with ${paid} payments in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const t1 = performance.now();
    const raw = await adapter.scanDeposits(BigInt(from), BigInt(to), new Set(addresses), [{ networkId: net!.id, contract: null }]);
    const rawRate = (blocks / (performance.now() - t1)) * 1000;
    const run = await catchUp(database, adapter);
    const rate = (blocks / run.ms) * 1000;

    const [counts] = await database.sql.query<{ deposits: number; credited: number; entries: number; ltc: string }>(
      `select (select count(*) from deposits)::int as deposits,
              (select count(*) from deposits where status = 'credited')::int as credited,
              (select count(*) from journal_entries where kind = 'deposit')::int as entries,
              (select coalesce(sum(balance), 0)::text from accounts a join currencies c on c.id = a.currency_id
                where c.code = 'LTC' and a.user_id is not null) as ltc`,
    );
    const audit = await auditLedger(database);
    console.log(`\nUTXO watcher (litecoind regtest, ${database.kind}; ${addresses.length} watched addresses; ${blocks} blocks)\n`);
    console.log('| run | blocks/s | against the raw scan | notes |');
    console.log('|---|---|---|---|');
    console.log(`| raw scan, UtxoChainAdapter.scanDeposits (no database) | ${rawRate.toFixed(0)} | reference | ${raw.length} found |`);
    console.log(
      `| watcher catch-up, cursor to tip | ${rate.toFixed(0)} | ${(rate / rawRate).toFixed(2)}x | ` +
        `scan ${run.scan.toFixed(0)} ms, credit ${run.credit.toFixed(0)} ms |`,
    );
    console.log(
      `\nUTXO deposits recorded ${counts!.deposits} (expected ${paid}), credited ${counts!.credited}, deposit entries ${counts!.entries}; ` +
        `users hold ${counts!.ltc} LTC (expected ${paid} × ${UTXO_PAYMENT}); audit ${audit.ok ? 'ok' : 'FAILED'}`,
    );
    return counts!.deposits === paid && counts!.credited === paid && counts!.entries === paid && raw.length === paid && audit.ok;
  } finally {
    await database.close();
    await node.stop();
  }
}
