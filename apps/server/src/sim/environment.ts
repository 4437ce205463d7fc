import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { startChain } from '../chain/runtime.ts';
import { loadConfig } from '../config.ts';
import { silentLog } from '../core/log.ts';
import { createSession, TOKEN_HEAD } from '../core/session.ts';
import { type Database, migrateDatabase, openPglite, openPostgres } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { users } from '../db/schema/index.ts';
import { createMailer } from '../mail/mailer.ts';
import { type FaultyDatabase, withFaults } from './faults.ts';
import type { SimUser } from './types.ts';

export interface Environment {
  raw: Database;
  /** The database of the first app, where faults are armed. */
  faulty: FaultyDatabase;
  /** The second app's (the same wrapper, never armed: its writers are its own). */
  idle: FaultyDatabase;
  apps: FastifyInstance[];
  close(): Promise<void>;
}

/**
 * A fresh database (PGlite in memory, or a new database on the PostgreSQL server named by
 * `databaseUrl`, dropped at the end) and the app over it, built as the server builds it but
 * with no chain connection, no rate limits and no log. The app gets the fault-injecting
 * wrapper of the database; the checks read the database directly.
 */
export async function openEnvironment(databaseUrl: string | undefined): Promise<Environment> {
  let raw: Database;
  let drop = async () => {};
  if (databaseUrl) {
    const scratch = await createScratchDatabase(databaseUrl, 'coffer_sim');
    raw = await openPostgres(scratch.url, 20);
    drop = scratch.drop;
  } else {
    raw = await openPglite();
  }
  await migrateDatabase(raw);
  const faulty = withFaults(raw);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-sim-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    // SIM_LOG=error (or another level) writes the app's log to stderr, e.g. to see a 5000's cause.
    LOG_LEVEL: process.env.SIM_LOG ?? 'silent',
    RATE_LIMIT: 'off',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    CONSOLE_DIST_DIR: path.join(dataDir, 'no-console'),
  });
  const mailer = createMailer({ from: config.MAIL_FROM, dataDir, log: silentLog });
  const chain = await startChain({ config, database: faulty.database, log: silentLog, connect: false, loop: false });
  // Two apps over one database, as two API processes: each has its own transfer and swap
  // writer (they are per Database object), so batches of both may run at once.
  const idle = withFaults(raw);
  const apps: FastifyInstance[] = [];
  for (const database of [faulty.database, idle.database]) {
    const app = await buildApp(
      { config, database, mailer, chain },
      process.env.SIM_LOG ? { logStream: process.stderr } : { logger: false },
    );
    await app.ready();
    apps.push(app);
  }
  return {
    raw,
    faulty,
    idle,
    apps,
    async close() {
      for (const app of apps) await app.close();
      await chain.stop();
      mailer.close();
      await raw.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A user (or operator) with a session, written straight into the database. */
export async function makeUser(database: Database, name: string, role: 'user' | 'operator'): Promise<SimUser> {
  const email = `${name}-${crypto.randomBytes(4).toString('hex')}@sim.coffer`;
  const [row] = await database.db
    .insert(users)
    .values({ email, passwordHash: 'sim-user-no-password', nickname: name, role })
    .returning({ id: users.id });
  const token = await createSession(database.db, row!.id, 24, {});
  return { uid: row!.id, email, token: TOKEN_HEAD + token };
}
