import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { startCleanup } from './core/cleanup.ts';
import { lockDataDir } from './core/data-dir-lock.ts';
import { type Database, migrateDatabase, migratePostgresLocked, openPglite, openPostgres } from './db/client.ts';
import { startChain } from './chain/runtime.ts';
import { startJobsLeader } from './cluster/jobs-leader.ts';
import { startActivityPayouts } from './modules/activities/index.ts';
import { startOperatorAlerts } from './modules/alerts/index.ts';
import { notifierFor, startMoneyEventNotices } from './modules/notify/index.ts';
import { createMailer } from './mail/mailer.ts';

/** Opens the configured database (PostgreSQL, or PGlite in DATA_DIR) and brings it up to date. */
export async function openConfiguredDatabase(config: Config): Promise<{ database: Database; release: () => void }> {
  if (config.DATABASE_URL) {
    const database = await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    await migratePostgresLocked(config.DATABASE_URL, database);
    return { database, release: () => {} };
  }
  const release = lockDataDir(config.dataDir);
  try {
    const database = await openPglite(path.join(config.dataDir, 'pgdata'));
    await migrateDatabase(database);
    return { database, release };
  } catch (e) {
    release();
    throw e;
  }
}

export async function startServer(config: Config) {
  const log = pino({ level: config.LOG_LEVEL });
  const { database, release } = await openConfiguredDatabase(config);
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.dataDir, log });
  let chain: Awaited<ReturnType<typeof startChain>>;
  try {
    chain = await startChain({ config, database, log: log.child({ module: 'chain' }), connect: config.CHAIN === 'on' });
  } catch (e) {
    await database.close();
    release();
    throw e;
  }
  const app = await buildApp({ config, database, mailer, chain });
  const notifier = notifierFor(database);
  if (!notifier) throw new Error('the notify module registered no notifier');
  // Periodic jobs run in one process per database, however many API processes serve it.
  const jobs = startJobsLeader({
    database,
    log: log.child({ module: 'jobs' }),
    start: () => [
      startCleanup({ database, log: log.child({ module: 'cleanup' }) }),
      startActivityPayouts({
        database,
        log: log.child({ module: 'activities' }),
        intervalMs: config.ACTIVITY_PAYOUT_INTERVAL_SECONDS * 1000,
      }),
      startOperatorAlerts({
        database,
        // the app's mailer: an operator's anti-phishing phrase heads their alert mails too
        mailer: app.deps.mailer,
        log: log.child({ module: 'alerts' }),
        limits: { payoutWaitMinutes: config.ALERT_PAYOUT_WAIT_MINUTES, reviewMinutes: config.ALERT_REVIEW_MINUTES },
        intervalMs: config.ALERT_CHECK_SECONDS * 1000,
      }),
      startMoneyEventNotices({ database, notifier, log: log.child({ module: 'notify' }) }),
    ],
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      await jobs.stop();
      await chain.stop();
      mailer.close();
      await database.close();
      release();
    })();
    return closing;
  };
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (e) {
    await close();
    throw e;
  }
  return { app, database, jobs, close };
}
