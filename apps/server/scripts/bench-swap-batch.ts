/**
 * The swap batch alone, without HTTP: how long coffer_swap_batch() takes per swap on a real
 * PostgreSQL, one batch after another on one connection, every swap USDT -> USDC at a fixed
 * price through the house (the shape of `npm run bench:ledger`'s swap run). The companion of
 * bench-transfer-batch.ts, for comparing swap SQL designs without the HTTP server's noise.
 *
 *   node --import tsx apps/server/scripts/bench-swap-batch.ts [--items 8] [--seconds 10] [--explain] [--prep SQL]
 *
 * Env: BENCH_PG_URL (admin URL, default local postgres).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateDatabase, openPostgres } from '../src/db/client.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    warm: { type: 'string', default: '20000' },
    explain: { type: 'boolean', default: false },
    /** SQL run after migrating (experiments: drop an index, replace a function). */
    prep: { type: 'string' },
    /** Send the pair's signature, as a swap priced from the API's copy of the pair does. */
    signed: { type: 'boolean', default: false },
  },
});
const ITEMS = Number(values.items);
const SECONDS = Number(values.seconds);
const USERS = Number(values.users);
const WARM = Number(values.warm);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USDT = 1;
const USDC = 2;

const scratch = await createScratchDatabase(ADMIN_URL, 'coffer_sb');
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
  // Each user holds 1,000,000 USDT; the house holds USDC to pay them (one entry each).
  await sql.query(`do $$
    declare v_entry bigint; v_world bigint := ledger_account(null, ${USDT}, 'world'); r record;
    begin
      for r in select id from users loop
        v_entry := ledger_open_entry('adjustment', null, null, null, 'bench funding');
        perform ledger_post(v_entry, array[v_world, ledger_account(r.id, ${USDT}, 'available')], array[-1000000, 1000000]::numeric[]);
      end loop;
      v_entry := ledger_open_entry('adjustment', null, null, null, 'bench house');
      perform ledger_post(v_entry, array[ledger_account(null, ${USDC}, 'world'), swap_system_account(${USDC}, 'house')],
        array[-1000000000, 1000000000]::numeric[]);
    end $$`);

  const tokens = (await sql.query<{ id: string }>('select id from users order by id')).map((r) => `tok${r.id}`);
  const [pair] = await sql.query<{ sig: string | null }>(`select coffer_swap_pair_signature(${USDT}, ${USDC}) as sig`);
  const signature = values.signed ? pair!.sig : null;
  const batchParams = () => {
    const t = Array.from({ length: ITEMS }, () => tokens[crypto.randomInt(tokens.length)]!);
    const keys = t.map(() => crypto.randomUUID());
    const each = <T>(v: T) => t.map(() => v);
    // 1 USDT -> 0.997 USDC, fee 0.001 USDC (in the currency bought), spread 20 bps.
    return [
      t,
      keys,
      keys,
      each(null),
      each(USDT),
      each(USDC),
      each('1'),
      each('0.997'),
      each('0.001'),
      each(USDC),
      each('0.998'),
      each('1'),
      each(20),
      each(10),
      each(signature),
    ];
  };
  const text = `select b_i, b_state from coffer_swap_batch($1, $2, $3, $4, $5, $6, $7::numeric[], $8::numeric[], $9::numeric[],
    $10, $11::numeric[], $12::numeric[], $13, $14, $15)`;

  const conn = new pg.Client({ connectionString: scratch.url });
  await conn.connect();
  const backend = Number((await conn.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
  const cpuMs = () => {
    const fields = fs.readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  async function run(seconds: number, label: string | null) {
    const deadline = performance.now() + seconds * 1000;
    let batches = 0;
    let refused = 0;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    while (performance.now() < deadline) {
      const res = await conn.query<{ b_state: string | null }>({ name: 'sb', text, values: batchParams() });
      refused += res.rows.filter((r) => r.b_state !== null).length;
      batches++;
    }
    const ms = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    if (label) {
      const items = batches * ITEMS;
      console.log(
        `${label}: ${Math.round((items / ms) * 1000)} swaps/s, ${(ms / batches).toFixed(2)} ms per batch of ${ITEMS} ` +
          `(wall, one connection), database CPU ${((cpu / items) * 1000).toFixed(0)} µs per swap, ${refused} refused`,
      );
    }
  }

  for (let i = 0; i < WARM / ITEMS; i++) await sql.query(text, batchParams());
  await sql.query('analyze');
  if (values.explain) {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    client.on('notice', (n) => console.log(n.message));
    await client.query(`load 'auto_explain'`);
    await client.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
      set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_timing = on`);
    for (let i = 0; i < 3; i++) {
      if (i === 2) console.log('---- third batch ----');
      await client.query(text, batchParams());
    }
    await client.end();
  }
  await run(2, null);
  await run(SECONDS, 'current');
  const [audit] = await sql.query<{ n: string }>(
    'select count(*) as n from accounts a where a.balance <> coalesce((select sum(p.amount) from postings p where p.account_id = a.id), 0)',
  );
  console.log(`accounts whose balance differs from their postings: ${audit!.n}`);
  await conn.end();
} finally {
  await database.close();
  await scratch.drop();
}
