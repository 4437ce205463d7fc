import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../app.ts';
import { startChain } from '../chain/runtime.ts';
import { loadConfig } from '../config.ts';
import { type Database, migrateDatabase, openPglite, openPostgres } from '../db/client.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { PG_TEMPLATE_ENV, PGLITE_SNAPSHOT_ENV } from './template-db.ts';
import { waitFor } from './wait.ts';
import { silentLog } from '../core/log.ts';

/**
 * API tests run against PGlite by default and against the machine's PostgreSQL when
 * TEST_DB=postgres (TEST_DATABASE_URL names the server; each test file gets a fresh database).
 */
export const testDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface CapturedMail {
  to: string;
  raw: string;
}

/** A real SMTP server on a free loopback port; the app sends through nodemailer to it. */
export async function startMailbox() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address.toLowerCase(), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /**
     * The 6-digit code of the newest mail to `to` that holds one; waits briefly for delivery.
     * Mails without a code are passed over: a notice of the same user's last action (two-factor
     * turned on, decision 054) is sent on its own and may land after the code mail.
     */
    lastCode(to: string): Promise<string> {
      return waitFor(
        () =>
          mails
            .filter((m) => m.to === to.toLowerCase())
            .map((m) => m.raw.match(/\b(\d{6})\b/)?.[1])
            .filter((code) => code !== undefined)
            .at(-1),
        `a code mailed to ${to}`,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A database of the test's own, migrated. Under vitest the globalSetup (global-setup.ts) has
 * migrated one database for the run and this copies it; elsewhere (a script importing the
 * harness) it migrates a fresh one.
 */
export async function createTestDatabase(): Promise<Database> {
  if (testDbKind === 'pglite') {
    const snapshot = process.env[PGLITE_SNAPSHOT_ENV];
    if (snapshot) return openPglite(undefined, new Blob([fs.readFileSync(snapshot)]));
    const database = await openPglite();
    await migrateDatabase(database);
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = process.env[PG_TEMPLATE_ENV];
  const scratch = await createScratchDatabase(adminUrl, 'coffer_t', template);
  const database = await openPostgres(scratch.url, 20);
  if (!template) await migrateDatabase(database);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * A full app (real database, real SMTP capture) for fastify.inject() tests. Logging is off
 * unless `logStream` is given (then at env LOG_LEVEL, default info, as the server writes it).
 * With `chain: true` a real anvil runs for the file (a block per transaction, no timer loop:
 * the test drives the watcher and the payout workers with `chain.live.tick()`).
 * With `database` the app uses that database (e.g. two apps on one database, or an app
 * "restarted" on the database of a closed one) and its close() leaves the database open.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { logStream?: NodeJS.WritableStream; chain?: boolean; database?: Database; clock?: () => number } = {},
) {
  const mailbox = await startMailbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
    LOG_LEVEL: opts.logStream ? 'info' : 'silent',
    // keys in this process: tests about the separate signer start it themselves
    SIGNER: 'in-process',
    // one anvil per file: a test that needs the second local chain sets LOCAL_L2=on
    LOCAL_L2: 'off',
    // no local litecoind unless a test asks (LOCAL_UTXO=on with chain: true)
    LOCAL_UTXO: 'off',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    CONSOLE_DIST_DIR: path.join(dataDir, 'no-console'),
    ...env,
  });
  const database = opts.database ?? (await createTestDatabase());
  const smtp = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir, log: silentLog });
  // Every address the app asked to mail, at the moment it asked: a test can tell "not sent"
  // without waiting for SMTP delivery that will never come.
  const sendAttempts: string[] = [];
  const mailer: Mailer = {
    send(mail) {
      sendAttempts.push(mail.to.toLowerCase());
      return smtp.send(mail);
    },
    close: () => smtp.close(),
  };
  const chain = await startChain({ config, database, log: silentLog, connect: opts.chain === true, loop: false, clock: opts.clock });
  const app = await buildApp({ config, database, mailer, chain }, opts.logStream ? { logStream: opts.logStream } : { logger: false });
  await app.ready();
  return {
    app,
    database,
    mailbox,
    /** Recipients of every mailer.send() call so far, in call order (delivered or not). */
    sendAttempts,
    config,
    chain,
    async close() {
      await app.close();
      await chain.stop();
      mailer.close();
      if (!opts.database) await database.close();
      await mailbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
