import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Options of {@link startAnvil}. */
export interface AnvilOptions {
  /** `--state <file>`: loaded at start if it exists, written on exit (SIGTERM) and every `stateInterval` s. */
  stateFile?: string;
  /** `--block-time <s>`: interval mining. Unset = automine (a block per transaction). */
  blockTime?: number;
  /** `--chain-id`, default 31337. */
  chainId?: number;
  /**
   * `--state-interval <s>` when `stateFile` is set, default 30: bounds what a SIGKILL of anvil
   * (or of this process) loses; SIGTERM and a normal exit always write the state. 0 = only on exit.
   * Each dump rewrites the whole file (about 1.7 KB per block, 17 MB per 10,000 blocks).
   */
  stateInterval?: number;
  /** Readiness timeout in ms; default 10 000 plus 1 000 per 20 MB of an existing state file (loading it takes ~0.5 s per 17 MB). */
  readyTimeoutMs?: number;
}

export interface AnvilInstance {
  url: string;
  port: number;
  chainId: number;
  /** process id of the anvil child */
  pid: number;
  /** SIGTERM (anvil writes its state file), SIGKILL after 5 s; resolves when the child has exited. Idempotent. */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Path of the anvil binary shipped by the optional dependency `@foundry-rs/anvil-<os>-<arch>`. */
export function anvilBinaryPath(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(
      `anvil binary package ${pkg} is not installed (platform ${process.platform}/${process.arch}); reinstall without --omit=optional or set EVM_RPC_URL`,
    );
  }
  const bin = join(dirname(pkgJson), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(bin)) throw new Error(`anvil binary missing at ${bin}`);
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

function stateFileMs(file: string | undefined): number {
  if (!file) return 0;
  try {
    return Math.ceil(statSync(file).size / 20e6) * 1000;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rpcChainId(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { result?: string };
    return typeof body.result === 'string' ? Number.parseInt(body.result, 16) : null;
  } catch {
    return null;
  }
}

// Children still running when this process exits get SIGTERM (anvil then dumps its state
// and exits by itself). One listener for all instances.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

async function spawnOnce(bin: string, opts: AnvilOptions, chainId: number): Promise<AnvilInstance> {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
  if (opts.blockTime !== undefined) args.push('--block-time', String(opts.blockTime));
  if (opts.stateFile) {
    args.push('--state', opts.stateFile);
    const interval = opts.stateInterval ?? 30;
    if (interval > 0) args.push('--state-interval', String(interval));
  }
  const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let spawnError: Error | null = null;
  child.on('error', (err) => {
    spawnError = err;
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  installExitHook();

  const url = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await waitExit(child, 5000))) {
          child.kill('SIGKILL');
          await waitExit(child, 5000);
        }
      }
      running.delete(child);
      child.stderr?.destroy();
    })();
    return stopping;
  };

  const timeoutMs = opts.readyTimeoutMs ?? 10_000 + stateFileMs(opts.stateFile);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawnError) throw spawnError;
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child);
      const err = new Error(`anvil exited (${child.exitCode ?? child.signalCode}) before it was ready: ${stderr.trim()}`);
      (err as Error & { retryable?: boolean }).retryable = /address already in use/i.test(stderr);
      throw err;
    }
    const id = await rpcChainId(url);
    if (id !== null) {
      if (id !== chainId) {
        await stop();
        throw new Error(`anvil on ${url} reports chain id ${id}, expected ${chainId}`);
      }
      return { url, port, chainId, pid: child.pid ?? -1, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil not ready on ${url} after ${timeoutMs} ms: ${stderr.trim()}`);
    }
    await sleep(20);
  }
}

/**
 * Spawns anvil on a free 127.0.0.1 port and resolves once it answers eth_chainId.
 * The child is killed by `stop()` and, as a safety net, when this process exits.
 */
export async function startAnvil(opts: AnvilOptions = {}): Promise<AnvilInstance> {
  const bin = anvilBinaryPath();
  const chainId = opts.chainId ?? 31337;
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnce(bin, opts, chainId);
    } catch (err) {
      // another process took the port between freePort() and anvil's bind
      if (attempt < 3 && (err as { retryable?: boolean }).retryable) continue;
      throw err;
    }
  }
}
