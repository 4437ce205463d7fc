// The database's share of a watcher chunk on PostgreSQL: one chunk of DEPOSITS token deposits
// recorded (coffer_deposit_record_chunk) and then credited (coffer_deposit_credit_due), ROUNDS
// times on a scratch database, over one connection whose backend CPU time is read from /proc
// (so the figure moves little with the machine's load, unlike wall time). Decision 067.
// Usage: BENCH_DATABASE_URL=postgres://... node --import tsx scripts/bench-deposit-sql.ts
// EXPLAIN=1 adds one round under auto_explain (nested statements, triggers) into the server's log.
import fs from 'node:fs';
import { loadScope, type ChunkRead } from '../src/chain/watcher-scan.ts';
import { recordChunk } from '../src/chain/watcher-record.ts';
import { migrateDatabase, openPostgres } from '../src/db/client.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';

const DEPOSITS = 200;
const ROUNDS = 44;
/** Rounds before these are warm-up (plans cached, pages in memory), left out of the figures. */
const WARM_ROUNDS = 4;
const CHAIN = 31337;
const CLOCK_TICK_MS = 10;

const scratch = await createScratchDatabase(
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  'coffer_bench',
);
const database = await openPostgres(scratch.url, 1);
await migrateDatabase(database);
const db = database.sql;
const addr = (i: number) => `0x${(0x1000000 + i).toString(16).padStart(40, '0')}`;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
await db.query(
  `insert into users (email, password_hash, nickname) select 'b' || i || '@bench.coffer', 'x', 'b' || i from generate_series(1, $1) i`,
  [2 * DEPOSITS],
);
const users = await db.query<{ id: number }>('select id from users order by id');
await db.query(
  `insert into deposit_addresses (user_id, chain_id, address_index, address) select u, $4, i, a from unnest($1::bigint[], $2::int[], $3::text[]) as x(u, i, a)`,
  [users.map((u) => u.id), users.map((_, i) => i + 1), users.map((_, i) => addr(i)), CHAIN],
);
await db.query(`update networks n set contract = $1 from currencies c where c.id = n.currency_id and c.code = 'USDT' and n.chain_id = $2`, [
  addr(999_999),
  CHAIN,
]);
await db.query('update networks set min_deposit = 0.000000000000000001, confirmations = 1 where chain_id = $1', [CHAIN]);
await db.query(`insert into chain_cursors (chain_id, block_number, block_hash) values ($1, 0, '0x00')`, [CHAIN]);
const scope = await loadScope(database, CHAIN);
const usdt = scope.networks.find((n) => n.contract)!;
const [{ pid }] = (await db.query<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
/** utime + stime of the connection's backend, in ms. */
function backendCpuMs(): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

/** One chunk: DEPOSITS deposits, every other round to the other half of the users. */
async function round(r: number): Promise<{ record: number; credit: number }> {
  const base = r * 10_000;
  const header = (n: number) => ({ number: BigInt(n), hash: hash(n), parentHash: hash(n - 1) });
  const chunk: ChunkRead = {
    from: base + 1,
    to: base + DEPOSITS,
    headers: [],
    first: header(base + 1),
    last: header(base + DEPOSITS),
    deposits: Array.from({ length: DEPOSITS }, (_, i) => ({
      networkId: usdt.id,
      txHash: hash(base + i),
      logIndex: 0,
      blockNumber: BigInt(base + i + 1),
      blockHash: hash(base + i + 1),
      from: addr(888_888),
      to: addr(r % 2 ? i : DEPOSITS + i),
      value: 5_000_000n,
    })),
  };
  const c0 = backendCpuMs();
  await recordChunk(database, CHAIN, scope, chunk, 0, { recheck: false, credit: false });
  const c1 = backendCpuMs();
  const credited = await db.query('select c_id from coffer_deposit_credit_due($1, $2)', [CHAIN, base + DEPOSITS + 1]);
  if (credited.length !== DEPOSITS) throw new Error(`credited ${credited.length} of ${DEPOSITS}`);
  return { record: c1 - c0, credit: backendCpuMs() - c1 };
}

const measured = { record: 0, credit: 0 };
for (let r = 1; r <= ROUNDS; r++) {
  const cpu = await round(r);
  if (r <= WARM_ROUNDS) continue;
  measured.record += cpu.record;
  measured.credit += cpu.credit;
}
const n = ROUNDS - WARM_ROUNDS;
console.log(
  `backend CPU per chunk of ${DEPOSITS} deposits (mean of ${n}): record ${(measured.record / n).toFixed(1)} ms, credit ${(measured.credit / n).toFixed(1)} ms`,
);
if (process.env.EXPLAIN) {
  await db.query(`load 'auto_explain'`);
  await db.query(
    `set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set auto_explain.log_analyze = on; set auto_explain.log_triggers = on`,
  );
  await round(ROUNDS + 1);
}
await database.close();
await scratch.drop();
