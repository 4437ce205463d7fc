import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.resolve(serverRoot, '../../node_modules/.bin/tsx');

function run(script: string, args: string[], env: Record<string, string>) {
  const res = spawnSync(tsx, [path.join('src/cli', script), ...args], {
    cwd: serverRoot,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    timeout: 30_000,
  });
  return { status: res.status, out: res.stdout + res.stderr };
}

/** The operator commands' own behaviour (the ledger work itself is tested through adjustBalance and auditLedger). */
describe('ledger command line', () => {
  it('explains its usage and exits 2 without the required options', () => {
    const res = run('ledger-adjust.ts', ['--email', 'a@b.c'], {});
    expect(res.status).toBe(2);
    expect(res.out).toContain('npm run ledger:adjust -- --email');
  });

  it('refuses to open the embedded database while the server holds DATA_DIR, and says to stop it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-cli-'));
    try {
      // The lock file of a live process (this one), as a running server leaves it.
      fs.writeFileSync(path.join(dataDir, 'coffer.lock'), String(process.pid));
      const adjust = run('ledger-adjust.ts', ['--email', 'a@b.c', '--currency', 'USDT', '--amount', '1', '--reason', 'x'], {
        DATA_DIR: dataDir,
      });
      expect(adjust.status).toBe(1);
      expect(adjust.out).toContain('stop the Coffer server first');
      const audit = run('ledger-audit.ts', [], { DATA_DIR: dataDir });
      expect(audit.status).toBe(1);
      expect(audit.out).toContain('stop the Coffer server first');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Two commands started through tsx one after the other: 35 s on a loaded two-core runner.
  }, 90_000);
});
