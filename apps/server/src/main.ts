import cluster from 'node:cluster';
import { runPrimary } from './cluster/primary.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { startServer } from './runtime.ts';

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  if (config.WORKERS > 1 && cluster.isPrimary) {
    runPrimary(config);
    return;
  }
  if (!config.DATABASE_URL) {
    console.warn(`[coffer] embedded mode: PGlite in ${config.dataDir} (not for production; set DATABASE_URL)`);
  }
  if (!config.SMTP_URL) console.warn('[coffer] SMTP_URL unset: mail is printed to the log and saved in DATA_DIR/mail');
  const server = await startServer(config);
  const shutdown = (signal: string) => {
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (e) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((e) => {
  console.error('[coffer] failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
