import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { createTestDatabase, testDbKind } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { startJobsLeader } from './jobs-leader.ts';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const quiet = { info: () => {}, warn: () => {} };
const RETRY_MS = 100;

/** A leader that counts the jobs it started and stopped, and its tries to take the lead. */
function countingLeader(database: Database) {
  const counts = { started: 0, stopped: 0, tries: 0 };
  const dedicated = database.dedicated;
  const leader = startJobsLeader({
    // Each try to take the lead asks for a connection of its own: counted here.
    database: dedicated
      ? {
          ...database,
          dedicated: () => {
            counts.tries += 1;
            return dedicated();
          },
        }
      : database,
    log: quiet,
    retryMs: RETRY_MS,
    start: () => {
      counts.started += 1;
      return [
        {
          stop: async () => {
            counts.stopped += 1;
          },
        },
      ];
    },
  });
  return { leader, counts };
}

describe('jobs leader', () => {
  let database: Database;
  afterAll(async () => {
    await database?.close();
  });

  it('one process per database runs the periodic jobs; another takes over when it stops', async () => {
    database = await createTestDatabase();
    const a = countingLeader(database);
    await a.leader.ready;
    const b = countingLeader(database);
    await b.leader.ready;
    expect(a.leader.isLeader()).toBe(true);
    expect(a.counts.started).toBe(1);
    if (testDbKind === 'pglite') {
      // PGlite serves one process (DATA_DIR is locked): each instance leads its own.
      expect(b.leader.isLeader()).toBe(true);
      await a.leader.stop();
      await b.leader.stop();
      return;
    }
    // PostgreSQL: b waits behind a's advisory lock, however often it tries.
    const triesSoFar = b.counts.tries;
    await waitFor(() => b.counts.tries >= triesSoFar + 3, 'three more tries of b');
    expect(b.leader.isLeader()).toBe(false);
    expect(b.counts.started).toBe(0);
    await a.leader.stop();
    expect(a.counts.stopped).toBe(1);
    await waitFor(() => b.leader.isLeader(), 'b to take the lead');
    expect(b.counts.started).toBe(1);
    await b.leader.stop();
    expect(b.counts.stopped).toBe(1);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The cluster's workers: children of `pid` running main.ts (tsx also runs an esbuild child). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('main.ts'))
      .map((line) => Number.parseInt(line.trim(), 10))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

describe.runIf(testDbKind === 'postgres')('WORKERS=2 on PostgreSQL', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-cluster-'));
  let primary: ChildProcess | undefined;

  afterAll(async () => {
    if (primary && primary.exitCode === null) primary.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  });

  it('serves from two processes on one port, restarts a killed worker, and stops on SIGTERM', async () => {
    scratch = await createScratchDatabase(adminUrl, 'coffer_t');
    const port = await freePort();
    let out = '';
    primary = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        WORKERS: '2',
        DATABASE_URL: scratch.url,
        DATABASE_POOL_SIZE: '4',
        CHAIN: 'off',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        WEB_DIST_DIR: dataDir,
        CONSOLE_DIST_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (d: Buffer) => {
      out += d.toString();
    };
    primary.stdout?.on('data', collect);
    primary.stderr?.on('data', collect);
    const base = `http://127.0.0.1:${port}`;
    const healthy = async () => {
      try {
        return (await fetch(`${base}/api/health`)).ok;
      } catch {
        return false;
      }
    };
    const pid = primary.pid!;
    try {
      await waitFor(async () => childrenOf(pid).length === 2 && (await healthy()), 'two workers serving', { timeoutMs: 90_000 });
    } catch (e) {
      throw new Error(`${(e as Error).message} (workers: ${childrenOf(pid).join(',')})\n${out.slice(-3000)}`);
    }
    // Each request is answered (by either worker) in the envelope.
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${base}/api/health`).then((r) => r.status)));
    expect(answers.every((s) => s === 200)).toBe(true);

    // A worker killed outright is started again; the port keeps answering meanwhile.
    const [victim] = childrenOf(pid);
    process.kill(victim!, 'SIGKILL');
    await waitFor(() => !childrenOf(pid).includes(victim!), 'the killed worker to go');
    // A connection handed to the worker as it died is lost; the other worker keeps answering.
    await waitFor(healthy, 'the surviving worker to answer');
    await waitFor(async () => childrenOf(pid).length === 2 && (await healthy()), 'the worker to be started again', { timeoutMs: 60_000 });
    expect(out).toContain('starting it again');

    // SIGTERM to the primary stops the workers and exits cleanly.
    const exited = new Promise<number | null>((resolve) => primary!.once('exit', (code) => resolve(code)));
    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(childrenOf(pid)).toEqual([]);
  }, 180_000);
});
