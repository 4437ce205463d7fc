import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmtpCapture } from './mailbox';

export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const WEB_DIR = join(REPO_ROOT, 'apps/web');
/**
 * E2E_WEB_DIST_DIR serves a web build made elsewhere (`npx vite build --outDir <dir>` in
 * apps/web), never rebuilt by the suite: a run can test a build without touching apps/web/dist.
 */
export const WEB_DIST_DIR = process.env.E2E_WEB_DIST_DIR ? resolve(process.env.E2E_WEB_DIST_DIR) : join(WEB_DIR, 'dist');
export const CONSOLE_DIR = join(REPO_ROOT, 'apps/console');
export const CONSOLE_DIST_DIR = join(CONSOLE_DIR, 'dist');

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Registers as the first admin (OPERATOR_EMAILS bootstraps it) and enrols an authenticator; see wallet-support.ts. */
export const E2E_OPERATOR_EMAIL = 'operator@example.com';
/**
 * A second operator: four-eyes approvals need someone other than the one who asked. Listed in
 * OPERATOR_EMAILS too, but only the first admin is bootstrapped: the first operator grants this
 * one its roles through the console's API (wallet-support.ts signInOperator).
 */
export const E2E_SECOND_OPERATOR_EMAIL = 'second-operator@e2e.test';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** The build is stale when any web source (or the contract it imports) is newer than dist/index.html. */
export function webBuildIsStale(): boolean {
  const index = join(WEB_DIST_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = [
    join(WEB_DIR, 'src'),
    join(WEB_DIR, 'public'),
    join(WEB_DIR, 'index.html'),
    join(WEB_DIR, 'vite.config.ts'),
    join(REPO_ROOT, 'packages/contract/src'),
  ];
  return sources.some((source) => existsSync(source) && newestMtime(source) > built);
}

/** The operator console's build is stale like the web app's (its sources or the contract changed). */
export function consoleBuildIsStale(): boolean {
  const index = join(CONSOLE_DIST_DIR, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = [
    join(CONSOLE_DIR, 'src'),
    join(CONSOLE_DIR, 'index.html'),
    join(CONSOLE_DIR, 'vite.config.ts'),
    join(REPO_ROOT, 'packages/contract/src'),
  ];
  return sources.some((source) => existsSync(source) && newestMtime(source) > built);
}

function build(workspace: string) {
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npm', ['run', 'build', '-w', workspace], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** `npm run build` of the web app and the operator console, each only when missing or stale. */
export function ensureWebBuild(log: (line: string) => void = () => {}) {
  const skip = process.env.E2E_SKIP_BUILD === '1';
  if (process.env.E2E_WEB_DIST_DIR) {
    if (!existsSync(join(WEB_DIST_DIR, 'index.html'))) throw new Error(`E2E_WEB_DIST_DIR: no index.html in ${WEB_DIST_DIR}`);
  } else if (!(skip && existsSync(join(WEB_DIST_DIR, 'index.html'))) && webBuildIsStale()) {
    log('[e2e] building the web app');
    build('@coffer/web');
  }
  if (!(skip && existsSync(join(CONSOLE_DIST_DIR, 'index.html'))) && consoleBuildIsStale()) {
    log('[e2e] building the operator console');
    build('@coffer/console');
  }
}

async function waitForHealth(baseURL: string, child: ChildProcess, output: () => string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseURL}/api/health`);
      const body = (await response.json()) as { code?: number };
      if (body.code === 0) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not healthy within ${timeoutMs} ms:\n${output()}`);
}

export interface Stack {
  baseURL: string;
  mailDir: string;
  /** The server's process group (its children, the embedded chain among them, are in it). */
  pgid: number;
  stop: () => Promise<void>;
}

/**
 * Captured SMTP + the real server in embedded mode (fresh DATA_DIR) serving the built web
 * app, exactly as `npm start` runs it. The server runs in its own process group so its
 * children (the embedded chain) go down with it. `extraEnv` adds to or overrides the
 * server's environment.
 */
export async function startStack(extraEnv: Readonly<Record<string, string>> = {}): Promise<Stack> {
  const workDir = mkdtempSync(join(tmpdir(), 'coffer-e2e-'));
  const mailDir = join(workDir, 'mail');
  const [smtpPort, port] = [await freePort(), await freePort()];
  const smtp = await startSmtpCapture(mailDir, smtpPort);

  let log = '';
  const child = spawn(join(REPO_ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(workDir, 'data'),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      WEB_DIST_DIR,
      CONSOLE_DIST_DIR,
      LOG_LEVEL: 'warn',
      // The suite sends more code mails from one IP than a person would in a minute.
      RATE_LIMIT: 'off',
      // The wallet tests fund their users through the operator's adjust endpoint.
      OPERATOR_EMAILS: `${E2E_OPERATOR_EMAIL},${E2E_SECOND_OPERATOR_EMAIL}`,
      // Funding stays below the four-eyes threshold; the console test crosses it on purpose.
      ADJUST_APPROVAL_ABOVE: 'USDT=10000,USDC=10000,ETH=100,BTC=1',
      // The embedded chain runs as in `npm start`, only faster: deposits confirm in seconds.
      LOCAL_CHAIN_BLOCK_TIME: '1',
      CHAIN_POLL_INTERVAL_MS: '300',
      // One local chain per stack; a file that needs the second ("L2 (local)") passes LOCAL_L2=on.
      LOCAL_L2: 'off',
      // No local litecoind either (its first start mines 101 blocks); a file that needs it passes LOCAL_UTXO=on.
      LOCAL_UTXO: 'off',
      // Users are funded through adjustments, not deposits: coins the chain does not hold, which
      // exact reconciliation (docs/decisions/038) would rightly call a drift and freeze payouts.
      // It runs once at start (drift 0), then not again during the suite.
      RECONCILE_INTERVAL_SECONDS: '86400',
      // The alert worker looks every 2 s, so the console's alert test sees its alert at once.
      ALERT_CHECK_SECONDS: '2',
      // A file that needs its own server (e.g. on PostgreSQL, to move the clock in SQL).
      ...extraEnv,
    },
  });
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const baseURL = `http://127.0.0.1:${port}`;
  const stopServer = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitForHealth(baseURL, child, () => log);
  } catch (error) {
    await stopServer();
    await smtp.close();
    throw error;
  }

  return {
    baseURL,
    mailDir,
    pgid: child.pid ?? 0,
    stop: async () => {
      await stopServer();
      await smtp.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
