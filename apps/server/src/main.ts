import cluster from 'node:cluster';
import v8 from 'node:v8';
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
    // PGlite's 10 MB WebAssembly module is compiled here, and hot functions again by the
    // optimizing tier under load; each of V8's compilation threads keeps its own malloc arena
    // afterwards. One thread: ~25-40 MB less resident, no measured cost per transfer (decision 029).
    // A V8 flag read when a module is compiled, so setting it before PGlite opens is in time.
    v8.setFlagsFromString('--wasm-num-compilation-tasks=1');
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
