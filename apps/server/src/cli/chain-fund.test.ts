import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.resolve(serverRoot, '../../node_modules/.bin/tsx');

function run(args: string[]) {
  const res = spawnSync(tsx, ['src/cli/chain-fund.ts', ...args], {
    cwd: serverRoot,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', EVM_RPC_URL: '', LOG_LEVEL: 'silent' },
    timeout: 55_000,
  });
  return { status: res.status, out: res.stdout + res.stderr };
}

const HASH = `0x${'ab'.repeat(32)}`;

/** The command's own checks; the booking itself is tested on anvil in chain/custody.test.ts. */
describe('chain:fund command line', () => {
  it('refuses bad arguments with its usage (exit 2), before opening anything', () => {
    // each run starts tsx (seconds on a loaded machine): two cases, the checks share one path
    for (const [args, why] of [
      [['--network', '1', '--tx', '0x12', '--reason', 'seed'], '--tx must be a transaction hash'],
      [['--network', '1', '--tx', HASH, '--reason', 'bad\u0007reason'], 'no control characters'],
    ] as const) {
      const res = run([...args]);
      expect(res.status).toBe(2);
      expect(res.out).toContain(why);
      expect(res.out).toContain('npm run chain:fund');
    }
  }, 120_000);
});
