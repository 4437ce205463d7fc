import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../test/wait.ts';
import { type AnvilInstance, anvilBinaryPath, startAnvil } from './anvil.ts';

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const dirs: string[] = [];
const started: AnvilInstance[] = [];
afterAll(async () => {
  await Promise.all(started.map((a) => a.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir() {
  const d = mkdtempSync(join(tmpdir(), 'coffer-anvil-'));
  dirs.push(d);
  return d;
}
async function start(opts: Parameters<typeof startAnvil>[0] = {}) {
  const a = await startAnvil(opts);
  started.push(a);
  return a;
}

const ADDR = '0x1111111111111111111111111111111111111111';

/** Whether anvil's state file holds `balance` for ADDR yet (the file may not exist or be half written). */
function stateHolds(stateFile: string, balance: string): boolean {
  try {
    const accounts = (JSON.parse(readFileSync(stateFile, 'utf8')) as { accounts?: Record<string, { balance?: string }> }).accounts ?? {};
    return Object.entries(accounts).some(([address, account]) => address.toLowerCase() === ADDR && account.balance === balance);
  } catch {
    return false;
  }
}

describe('startAnvil', () => {
  it('finds the platform binary', () => {
    expect(anvilBinaryPath()).toMatch(/@foundry-rs\/anvil-[a-z0-9]+-[a-z0-9]+\/bin\/anvil/);
  });

  it('starts on a free port, answers, and leaves no process after stop', async () => {
    const t0 = performance.now();
    const a = await start();
    const ms = performance.now() - t0;
    console.log(`anvil ready in ${ms.toFixed(0)} ms`);
    expect(a.url).toBe(`http://127.0.0.1:${a.port}`);
    expect(a.chainId).toBe(31337);
    expect(await rpc<string>(a.url, 'eth_chainId')).toBe('0x7a69');
    expect(alive(a.pid)).toBe(true);
    await a.stop();
    expect(alive(a.pid)).toBe(false);
    await a.stop(); // idempotent
  });

  it('two instances at once get different ports; custom chain id', async () => {
    const [a, b] = await Promise.all([start({ chainId: 1337 }), start()]);
    expect(a.port).not.toBe(b.port);
    expect(await rpc<string>(a.url, 'eth_chainId')).toBe('0x539');
    await Promise.all([a.stop(), b.stop()]);
  });

  it('keeps state across a SIGTERM restart with a state file', async () => {
    const stateFile = join(tempDir(), 'anvil-state.json');
    const a = await start({ stateFile });
    await rpc(a.url, 'anvil_setBalance', [ADDR, '0x1234']);
    await rpc(a.url, 'anvil_mine', ['0x5']);
    const hash3 = (await rpc<{ hash: string }>(a.url, 'eth_getBlockByNumber', ['0x3', false])).hash;
    await a.stop();

    const b = await start({ stateFile });
    expect(await rpc<string>(b.url, 'eth_getBalance', [ADDR, 'latest'])).toBe('0x1234');
    expect(await rpc<string>(b.url, 'eth_blockNumber')).toBe('0x5');
    // block history (hashes) survives too: the watcher's stored hashes stay valid
    expect((await rpc<{ hash: string }>(b.url, 'eth_getBlockByNumber', ['0x3', false])).hash).toBe(hash3);
    await b.stop();
  });

  it('a SIGKILLed anvil keeps what the state interval wrote', async () => {
    const stateFile = join(tempDir(), 'anvil-state.json');
    const a = await start({ stateFile, stateInterval: 1 });
    await rpc(a.url, 'anvil_setBalance', [ADDR, '0x42']);
    // The state interval has written the balance (0x42) once the file holds it.
    await waitFor(() => stateHolds(stateFile, '0x42'), 'the state file to hold the new balance', { everyMs: 100 });
    process.kill(a.pid, 'SIGKILL');
    await a.stop();
    const b = await start({ stateFile });
    expect(await rpc<string>(b.url, 'eth_getBalance', [ADDR, 'latest'])).toBe('0x42');
    await b.stop();
  });

  it('mines on its own with blockTime', async () => {
    const a = await start({ blockTime: 1 });
    const before = Number(await rpc<string>(a.url, 'eth_blockNumber'));
    await waitFor(async () => Number(await rpc<string>(a.url, 'eth_blockNumber')) > before, 'a block mined on its own', { everyMs: 100 });
    await a.stop();
  });

  it('reports a corrupt state file instead of hanging', async () => {
    const stateFile = join(tempDir(), 'anvil-state.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(stateFile, '{ not json');
    await expect(startAnvil({ stateFile })).rejects.toThrow(/anvil exited/);
  });
});
