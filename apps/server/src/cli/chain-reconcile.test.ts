import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.resolve(serverRoot, '../../node_modules/.bin/tsx');

function run(args: string[], env: Record<string, string>) {
  const res = spawnSync(tsx, ['src/cli/chain-reconcile.ts', ...args], {
    cwd: serverRoot,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', EVM_RPC_URL: '', LOG_LEVEL: 'silent', ...env },
    timeout: 30_000,
  });
  return { status: res.status, out: res.stdout + res.stderr };
}

/** The command's own behaviour; reconcile itself is tested on anvil in chain/reconcile.test.ts. */
describe('chain:reconcile command line', () => {
  it('explains its usage and exits 2 on bad arguments', () => {
    const res = run(['--tolerance', '-1'], {});
    expect(res.status).toBe(2);
    expect(res.out).toContain('npm run chain:reconcile');
  });

  it('refuses to open the embedded database while the server holds DATA_DIR', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-cli-'));
    try {
      fs.writeFileSync(path.join(dataDir, 'coffer.lock'), String(process.pid));
      const res = run([], { DATA_DIR: dataDir });
      expect(res.status).toBe(1);
      expect(res.out).toContain('stop the Coffer server first');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
