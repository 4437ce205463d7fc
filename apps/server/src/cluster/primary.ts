import cluster, { type Worker } from 'node:cluster';
import { loadMnemonic } from '../chain/keys.ts';
import type { Config } from '../config.ts';
import { loadTwoFactorKey } from '../modules/two-factor/index.ts';

/** A worker that dies is started again after this pause. */
export const WORKER_RESTART_DELAY_MS = 1_000;
/** More unexpected exits than this within WORKER_CRASH_WINDOW_MS stop the whole server (a crash loop). */
export const WORKER_MAX_CRASHES = 5;
export const WORKER_CRASH_WINDOW_MS = 60_000;
/** Workers still running this long after SIGTERM are killed. */
export const WORKER_SHUTDOWN_GRACE_MS = 10_000;

/**
 * The primary of `WORKERS` > 1 (docs/scaling.md): it serves nothing itself. It creates the
 * secrets a worker would otherwise generate into DATA_DIR (two workers generating at once
 * would each keep a different key), forks the workers (node cluster: they share the port,
 * connections handed out round-robin), starts a worker again when one dies, and passes
 * SIGTERM/SIGINT on. Singleton work inside the workers (chain, jobs) is leader-elected
 * through PostgreSQL advisory locks, so any worker may die at any time.
 */
export function runPrimary(config: Config, log: (msg: string) => void = (m) => console.log(`[coffer] ${m}`)) {
  if (!config.TWO_FACTOR_KEY) loadTwoFactorKey(config);
  // The same rule as the chain runtime (generated only without a chain node); an unreadable
  // or refused phrase stops the start here, once, instead of in every worker.
  // With a chain node the keys are in the separate signer (docs/decisions/039-separate-signer.md): nothing to read here.
  if (config.evmChains.length === 0) {
    loadMnemonic({
      mnemonic: config.WALLET_MNEMONIC,
      mnemonicFile: config.WALLET_MNEMONIC_FILE,
      dataDir: config.dataDir,
      allowGenerate: true,
    });
  }

  let shuttingDown = false;
  const crashes: number[] = [];
  const fork = (id: number): Worker => {
    const worker = cluster.fork({ COFFER_WORKER_ID: String(id) });
    worker.on('exit', (code, signal) => {
      if (shuttingDown) return;
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && now - crashes[0]! > WORKER_CRASH_WINDOW_MS) crashes.shift();
      if (crashes.length > WORKER_MAX_CRASHES) {
        log(`worker ${id} exited (${signal ?? code}); ${crashes.length} exits within ${WORKER_CRASH_WINDOW_MS / 1000} s: stopping`);
        shutdown(1);
        return;
      }
      log(`worker ${id} exited (${signal ?? code}); starting it again in ${WORKER_RESTART_DELAY_MS} ms`);
      setTimeout(() => {
        if (!shuttingDown) fork(id);
      }, WORKER_RESTART_DELAY_MS);
    });
    return worker;
  };

  const shutdown = (exitCode: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
    for (const worker of running) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const worker of running) if (!worker.isDead()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, WORKER_SHUTDOWN_GRACE_MS);
    force.unref();
    let left = running.length;
    if (left === 0) process.exit(exitCode);
    for (const worker of running) {
      worker.once('exit', () => {
        left -= 1;
        if (left === 0) process.exit(exitCode);
      });
    }
  };

  log(`starting ${config.WORKERS} API processes on ${config.HOST}:${config.PORT}`);
  for (let id = 1; id <= config.WORKERS; id += 1) fork(id);
  process.once('SIGINT', () => shutdown(0));
  process.once('SIGTERM', () => shutdown(0));
}
