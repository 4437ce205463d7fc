/**
 * The transfer batch alone, without HTTP: how long coffer_transfer_batch() takes per item on a
 * real PostgreSQL, one batch after another on one connection (the group-commit writer's shape).
 * Used to compare batch SQL designs without the noise of the HTTP server and load generator.
 *
 *   node --import tsx apps/server/scripts/bench-transfer-batch.ts [--items 16] [--seconds 10] [--warm 20000] [--old]
 *
 * --old also installs the previous definition (git HEAD~ of sql/functions/coffer_transfer_batch.sql
 * given by BENCH_OLD_SQL, a file path) as coffer_transfer_batch_old() and measures it after the
 * current one, on the same database. Env: BENCH_PG_URL (admin URL, default local postgres).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateDatabase, openPostgres } from '../src/db/client.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    warm: { type: 'string', default: '20000' },
    old: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    /** SQL run after migrating (experiments: drop a constraint, replace a function). */
    prep: { type: 'string' },
  },
});
const ITEMS = Number(values.items);
const SECONDS = Number(values.seconds);
const USERS = Number(values.users);
const WARM = Number(values.warm);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const scratch = await createScratchDatabase(ADMIN_URL, 'coffer_tb');
const database = await openPostgres(scratch.url, 2);
const sql = database.sql;
try {
  await migrateDatabase(database);
  if (values.prep) await sql.query(values.prep);
  await sql.query(
    `insert into users (email, password_hash, nickname)
    select 'u' || g || '@bench.test', 'x', 'u' || g from generate_series(1, $1::int) g`,
    [USERS],
  );
  await sql.query(`insert into sessions (user_id, token_hash, expires_at)
    select id, 'tok' || id, now() + interval '1 day' from users`);
  // Each user gets 1,000,000 of currency 1 from the world account, one entry.
  await sql.query(`do $$
    declare v_entry bigint; v_world bigint := ledger_account(null, 1, 'world'); r record;
    begin
      for r in select id from users loop
        v_entry := ledger_open_entry('adjustment', null, null, null, 'bench funding');
        perform ledger_post(v_entry, array[v_world, ledger_account(r.id, 1, 'available')], array[-1000000, 1000000]::numeric[]);
      end loop;
    end $$`);
  if (values.old) {
    const file = process.env.BENCH_OLD_SQL;
    if (!file) throw new Error('--old needs BENCH_OLD_SQL=<file with the previous definition>');
    const text = fs.readFileSync(file, 'utf8').replace('public.coffer_transfer_batch(', 'public.coffer_transfer_batch_old(');
    await sql.query(text);
  }

  const userIds = (await sql.query<{ id: string }>('select id from users order by id')).map((r) => Number(r.id));
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
  const conn = new pg.Client({ connectionString: scratch.url });
  await conn.connect();
  const stepTimes: number[][] = [];
  conn.on('notice', (n) => {
    if (n.message?.startsWith('T')) stepTimes.push(n.message.slice(1).trim().split(' ').map(Number));
  });
  const backend = Number((await conn.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  };
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
  await sql.query('analyze');
  if (values.explain) {
    // Every statement inside the batch function, with its plan and timing, as notices.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    client.on('notice', (n) => console.log(n.message));
    await client.query(`load 'auto_explain'`);
    await client.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
      set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_timing = on`);
    for (let i = 0; i < 3; i++) {
      if (i === 2) console.log('---- third batch ----');
      await client.query('select * from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8)', batchParams());
    }
    await client.end();
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
  const audit = await sql.query<{ n: string }>(
    `select count(*)::text as n from accounts a
     where a.balance <> coalesce((select sum(amount) from postings p where p.account_id = a.id), 0)`,
  );
  console.log(`accounts whose balance differs from their postings: ${audit[0]!.n}`);
} finally {
  await database.close();
  await scratch.drop();
}
