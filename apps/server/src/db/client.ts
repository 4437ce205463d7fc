import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * Raw SQL for the hot paths (ledger functions): one round trip, no ORM. Both drivers
 * return int8 as a JS number (ids stay below 2^53) and numeric as a string.
 */
export interface SqlClient {
  /**
   * `name` makes it a prepared statement on PostgreSQL (parsed and planned once per
   * connection): for fixed hot-path statements only. PGlite ignores it.
   */
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: { name?: string }): Promise<T[]>;
  /**
   * PostgreSQL only: a connection a group-commit writer holds while its batches follow one
   * another (ledger/group-commit.ts). A statement on it goes to the socket within the call;
   * through the pool it waits a tick for a connection, after the answers of the batch just
   * done are written, so the database sat idle meanwhile (decision 030).
   */
  lane?(): Promise<SqlLane>;
}

/**
 * A held connection (SqlClient.lane): statements in call order, each written at once. It is
 * pipelined: a statement sent while another runs waits on the server and starts as soon as the
 * one before has committed, with no round trip between them. Each is its own transaction (one
 * Sync each), so an error in one leaves the next untouched.
 */
export interface SqlLane {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], opts?: { name?: string }): Promise<T[]>;
  /** Back to the pool; with an error the connection is closed instead (its state is unknown). */
  release(error?: Error): void;
}

/** A node-postgres pool's connections: all it holds, the idle ones, callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** Pipelined connections kept for lanes (one per writer at most: transfers, swaps). */
export const LANE_POOL_SIZE = 4;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlClient;
  close(): Promise<void>;
  /**
   * PostgreSQL only: the pool's connections right now (metrics: in use, idle, callers waiting),
   * and the same of the lanes' pool (SqlClient.lane, LANE_POOL_SIZE).
   */
  poolStats?(): PoolStats & { lanes: PoolStats };
  /**
   * PostgreSQL only: a connection of its own, kept until released (session-level advisory
   * locks, e.g. the chain leader's). PGlite has one connection and one process.
   */
  dedicated?(): Promise<{
    query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
    release(destroy?: boolean | Error): void;
    on(event: 'error', fn: (e: Error) => void): unknown;
    off(event: 'error', fn: (e: Error) => void): unknown;
  }>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

// int8 as number, numeric stays a string (exact money), timestamptz as Date.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

async function openLane(pool: pg.Pool): Promise<SqlLane> {
  const client = await pool.connect();
  // A held connection that dies (server restart) must not crash the process: its next
  // statement fails without a SQLSTATE and the writer closes the lane.
  const ignore = () => {};
  client.on('error', ignore);
  let released = false;
  return {
    async query(text, params, opts) {
      const values = params as unknown[];
      const res = await client.query(opts?.name ? { name: opts.name, text, values } : { text, values });
      return res.rows;
    },
    // Once: batches pipelined on a lost connection each report the loss.
    release(error) {
      if (released) return;
      released = true;
      client.off('error', ignore);
      client.release(error);
    },
  };
}

export async function openPostgres(url: string, poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection that dies (server restart, database dropped) is discarded by the pool;
  // without a listener its 'error' event would crash the process. Queries in flight still fail.
  pool.on('error', () => {});
  // node-postgres pipeline mode: see SqlLane.
  const lanes = new pg.Pool({ connectionString: url, max: LANE_POOL_SIZE, pipeline: true } as pg.PoolConfig);
  lanes.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    sql: {
      async query(text, params, opts) {
        const res = opts?.name
          ? await pool.query({ name: opts.name, text, values: params as unknown[] })
          : await pool.query(text, params as unknown[]);
        return res.rows;
      },
      lane: () => openLane(lanes),
    },
    close: async () => {
      await Promise.all([pool.end(), lanes.end()]);
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      lanes: { total: lanes.totalCount, idle: lanes.idleCount, waiting: lanes.waitingCount },
    }),
    dedicated: () => pool.connect(),
  };
}

/**
 * PGlite's shared buffers (PostgreSQL's default, which PGlite keeps, is 128 MB, touched at
 * start). Measured on this machine (2026-11-22): a PGlite process is 341 MB resident right after
 * opening with 128 MB and 236 MB with 16 MB, 370 and 247 MB after writing 200,000 rows. The
 * embedded mode serves one small deployment; its pages stay in the OS cache either way.
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

function pgliteOptions(dataDir?: string, loadDataDir?: Blob) {
  return {
    ...(dataDir && { dataDir }),
    ...(loadDataDir && { loadDataDir }),
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS_MB}MB`],
  };
}

/**
 * initdb for a new PGlite data directory, in a child Node process. initdb's WebAssembly
 * instance grows to ~500 MB, and even once it is closed and collected, the server process
 * kept ~80-140 MB more resident than one that opened an existing directory (measured
 * 2026-11-23: 297-363 MB against 221 MB after the same work; the freed native memory stays
 * with the process). The child exits and takes all of it along.
 */
async function initPgliteDataDir(dataDir: string): Promise<void> {
  // The CommonJS build: `node -e` runs CommonJS, and the child needs nothing else of ours.
  const pgliteCjs = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(process.argv[1]);
PGlite.create({ dataDir: process.argv[2], startParams: JSON.parse(process.argv[3]) }).then((db) => db.close());`;
  const { startParams } = pgliteOptions();
  const child = spawn(process.execPath, ['-e', script, pgliteCjs, dataDir, JSON.stringify(startParams)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c, s) => resolve([c, s]));
  });
  if (code !== 0 || !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(`PGlite initdb in ${dataDir} failed (exit ${code ?? signal}): ${stderr.trim()}`);
  }
}

/** PGlite: the embedded default. `dataDir` undefined means in memory (tests). */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  if (dataDir && !loadDataDir && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await initPgliteDataDir(dataDir);
  // One options object: PGlite.create(undefined, options) ignores its options.
  const client = await PGlite.create(pgliteOptions(dataDir, loadDataDir));
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    sql: {
      async query(text, params) {
        const res = await client.query(text, params as unknown[]);
        return res.rows as never;
      },
    },
    close: () => client.close(),
  };
}

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
  else await migratePg(database.db as never, { migrationsFolder });
}

/** Several API processes may start at once against one PostgreSQL: one migrates, the rest wait. */
export async function migratePostgresLocked(url: string, database: Database): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(7341001)');
    await migrateDatabase(database);
  } finally {
    await client.query('select pg_advisory_unlock(7341001)').catch(() => {});
    await client.end();
  }
}
