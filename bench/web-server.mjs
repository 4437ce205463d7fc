/** The real server for bench/web.mjs: embedded mode, a fresh DATA_DIR, a free port, serving a web build. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts apps/server from `root` serving `dist`; resolves once /api/health answers. */
export async function startServer(ROOT, DIST) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'coffer-bench-web-'));
  let log = '';
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['apps/server/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIST_DIR: DIST, LOG_LEVEL: 'warn' },
  });
  const keep = (chunk) => {
    log = (log + chunk).slice(-10_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      } catch {
        // Already gone.
      }
    }
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      const body = await (await fetch(`${baseURL}/api/health`)).json();
      if (body.code === 0) return { baseURL, dataDir, stop };
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`server not healthy in 180 s:\n${log}`);
}
