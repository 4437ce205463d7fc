/**
 * The transfer batch alone, without HTTP: how long coffer_transfer_batch() takes per item on a
 * real PostgreSQL, one batch after another on one connection (the group-commit writer's shape).
 * Used to compare batch SQL designs without the noise of the HTTP server and load generator.
 *
 *   node --import tsx apps/server/scripts/bench-transfer-batch.ts [--items 16] [--seconds 10] [--warm 20000] [--old] [--analyze]
 *
 * --old also installs the previous definition (git HEAD~ of sql/functions/coffer_transfer_batch.sql
 * given by BENCH_OLD_SQL, a file path) as coffer_transfer_batch_old() and measures it after the
 * current one, on the same database. Env: BENCH_PG_URL (admin URL, default local postgres).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { backendCpu, explainBatches, openBenchDatabase, printBalanceCheck } from './batch-bench-support.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    warm: { type: 'string', default: '20000' },
    old: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    /**
     * ANALYZE after the warm-up (the plans are then made again with statistics). Off by default:
     * the server's database has none until autovacuum runs (off on the CI machine), and its
     * plans are made on first use (migration 0028 found a swap plan that only this showed).
     */
    analyze: { type: 'boolean', default: false },
    /** SQL run after migrating (experiments: drop a constraint, replace a function). */
    prep: { type: 'string' },
  },
});
const ITEMS = Number(values.items);
const SECONDS = Number(values.seconds);
const USERS = Number(values.users);
const WARM = Number(values.warm);

const bench = await openBenchDatabase('coffer_tb', USERS, values.prep);
const { sql } = bench;
try {
  if (values.old) {
    const file = process.env.BENCH_OLD_SQL;
    if (!file) throw new Error('--old needs BENCH_OLD_SQL=<file with the previous definition>');
    const text = fs.readFileSync(file, 'utf8').replace('public.coffer_transfer_batch(', 'public.coffer_transfer_batch_old(');
    await sql.query(text);
  }

  const { userIds } = bench;
  const pick = () => userIds[crypto.randomInt(userIds.length)]!;
  const batchParams = () => {
    const from: string[] = [];
    const to: number[] = [];
    for (let i = 0; i < ITEMS; i++) {
      const a = pick();
      let b = pick();
      while (b === a) b = pick();
      from.push(`tok${a}`);
      to.push(b);
    }
    const keys = from.map(() => crypto.randomUUID());
    return [from, to, from.map(() => null), from.map(() => 1), from.map(() => '0.01'), from.map(() => null), keys, keys];
  };

  // One connection, as the group-commit writer uses one at a time; its backend's CPU is read
  // from /proc (the database runs on this machine), which a busy machine disturbs less than wall time.
  const conn = new pg.Client({ connectionString: bench.url });
  await conn.connect();
  const stepTimes: number[][] = [];
  conn.on('notice', (n) => {
    if (n.message?.startsWith('T')) stepTimes.push(n.message.slice(1).trim().split(' ').map(Number));
  });
  const cpuMs = await backendCpu(conn);
  async function run(fn: string, seconds: number, label: string | null) {
    const text = `select b_i, b_state from ${fn}($1, $2, $3, $4, $5::numeric[], $6, $7, $8)`;
    const name = `tb_${fn}`;
    const deadline = performance.now() + seconds * 1000;
    let batches = 0;
    let refused = 0;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    while (performance.now() < deadline) {
      const res = await conn.query<{ b_state: string | null }>({ name, text, values: batchParams() });
      refused += res.rows.filter((r) => r.b_state !== null).length;
      batches++;
    }
    const ms = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    if (label) {
      const items = batches * ITEMS;
      console.log(
        `${label}: ${Math.round((items / ms) * 1000)} transfers/s, ${(ms / batches).toFixed(2)} ms per batch of ${ITEMS} ` +
          `(wall, one connection), database CPU ${((cpu / items) * 1000).toFixed(0)} µs per transfer, ${refused} refused`,
      );
    }
  }

  // Grow the tables first so the plans see realistic sizes.
  for (let i = 0; i < WARM / ITEMS; i++) {
    await sql.query('select coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8)', batchParams());
  }
  if (values.analyze) await sql.query('analyze');
  if (values.explain) {
    await explainBatches(bench.url, 'select * from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8)', batchParams);
  }
  await run('coffer_transfer_batch', 2, null);
  await run('coffer_transfer_batch', SECONDS, 'current');
  if (values.old) {
    await run('coffer_transfer_batch_old', 2, null);
    await run('coffer_transfer_batch_old', SECONDS, 'old    ');
    await run('coffer_transfer_batch', SECONDS, 'current');
  }
  await conn.end();
  if (stepTimes.length > 0) {
    const n = stepTimes.length;
    const sums = stepTimes[0]!.map((_, k) => stepTimes.reduce((a, t) => a + (t[k] ?? 0), 0) / n);
    console.log(`µs per batch by step (mean of ${n}): ${sums.map((v) => v.toFixed(0)).join(' ')}`);
  }
  await printBalanceCheck(sql);
} finally {
  await bench.drop();
}
