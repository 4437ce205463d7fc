/**
 * The swap batch alone, without HTTP: how long coffer_swap_batch() takes per swap on a real
 * PostgreSQL, one batch after another on one connection, every swap USDT -> USDC at a fixed
 * price through the house (the shape of `npm run bench:ledger`'s swap run). The companion of
 * bench-transfer-batch.ts, for comparing swap SQL designs without the HTTP server's noise.
 *
 *   node --import tsx apps/server/scripts/bench-swap-batch.ts [--items 8] [--seconds 10] [--explain] [--analyze] [--prep SQL]
 *
 * Env: BENCH_PG_URL (admin URL, default local postgres; batch-bench-support.ts).
 */
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { backendCpu, explainBatches, openBenchDatabase, printBalanceCheck } from './batch-bench-support.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    warm: { type: 'string', default: '20000' },
    explain: { type: 'boolean', default: false },
    /**
     * ANALYZE after the warm-up (the plans are then made again with statistics). Off by default:
     * the server's database has none until autovacuum runs (off on the CI machine), and its
     * plans are made on first use (migration 0028 found a swap plan that only this showed).
     */
    analyze: { type: 'boolean', default: false },
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
const USDT = 1;
const USDC = 2;

const bench = await openBenchDatabase('coffer_sb', USERS, values.prep);
const { sql, tokens } = bench;
try {
  // The house holds USDC to pay the users' USDT (one entry).
  await sql.query(`do $$
    declare v_entry bigint;
    begin
      v_entry := ledger_open_entry('adjustment', null, null, null, 'bench house');
      perform ledger_post(v_entry, array[ledger_account(null, ${USDC}, 'world'), swap_system_account(${USDC}, 'house')],
        array[-1000000000, 1000000000]::numeric[]);
    end $$`);
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

  const conn = new pg.Client({ connectionString: bench.url });
  await conn.connect();
  const cpuMs = await backendCpu(conn);
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
  if (values.analyze) await sql.query('analyze');
  if (values.explain) await explainBatches(bench.url, text, batchParams);
  await run(2, null);
  await run(SECONDS, 'current');
  await printBalanceCheck(sql);
  await conn.end();
} finally {
  await bench.drop();
}
