/**
 * What the batch micro-benches (bench-transfer-batch.ts, bench-swap-batch.ts) share: a scratch
 * database with users, sessions ('tok' || id) and funded accounts, the CPU of one backend read
 * from /proc, the batch statements' plans through auto_explain, and the balance check after.
 */
import fs from 'node:fs';
import pg from 'pg';
import { type Database, migrateDatabase, openPostgres } from '../src/db/client.ts';
import { createScratchDatabase } from '../src/db/scratch.ts';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  url: string;
  database: Database;
  sql: Database['sql'];
  /** Session tokens of the users, in id order. */
  tokens: string[];
  userIds: number[];
  drop(): Promise<void>;
}

/**
 * A migrated scratch database (`prep` run after migrating: experiments) with `users` users,
 * each holding 1,000,000 of currency 1 from the world account.
 */
export async function openBenchDatabase(prefix: string, users: number, prep?: string): Promise<BenchDatabase> {
  const scratch = await createScratchDatabase(ADMIN_URL, prefix);
  const database = await openPostgres(scratch.url, 2);
  const sql = database.sql;
  await migrateDatabase(database);
  if (prep) await sql.query(prep);
  await sql.query(
    `insert into users (email, password_hash, nickname)
    select 'u' || g || '@bench.test', 'x', 'u' || g from generate_series(1, $1::int) g`,
    [users],
  );
  await sql.query(`insert into sessions (user_id, token_hash, expires_at)
    select id, 'tok' || id, now() + interval '1 day' from users`);
  await sql.query(`do $$
    declare v_entry bigint; v_world bigint := ledger_account(null, 1, 'world'); r record;
    begin
      for r in select id from users loop
        v_entry := ledger_open_entry('adjustment', null, null, null, 'bench funding');
        perform ledger_post(v_entry, array[v_world, ledger_account(r.id, 1, 'available')], array[-1000000, 1000000]::numeric[]);
      end loop;
    end $$`);
  const userIds = (await sql.query<{ id: string }>('select id from users order by id')).map((r) => Number(r.id));
  return {
    url: scratch.url,
    database,
    sql,
    userIds,
    tokens: userIds.map((id) => `tok${id}`),
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

/** Milliseconds of CPU the connection's backend has used so far (the database runs on this machine). */
export async function backendCpu(conn: pg.Client): Promise<() => number> {
  const backend = Number((await conn.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid);
  return () => {
    const fields = fs.readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  };
}

/** Every statement inside the batch function, with its plan and timing, as notices (third call shown whole). */
export async function explainBatches(url: string, text: string, params: () => unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on('notice', (n) => console.log(n.message));
  await client.query(`load 'auto_explain'`);
  await client.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on;
    set auto_explain.log_nested_statements = on; set auto_explain.log_level = notice; set auto_explain.log_timing = on`);
  for (let i = 0; i < 3; i++) {
    if (i === 2) console.log('---- third batch ----');
    await client.query(text, params());
  }
  await client.end();
}

/** Accounts whose balance is not the sum of their postings (0 after a sound run). */
export async function printBalanceCheck(sql: Database['sql']) {
  const [row] = await sql.query<{ n: string }>(
    `select count(*)::text as n from accounts a
     where a.balance <> coalesce((select sum(amount) from postings p where p.account_id = a.id), 0)`,
  );
  console.log(`accounts whose balance differs from their postings: ${row!.n}`);
}
