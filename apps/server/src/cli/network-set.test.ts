import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openPglite, openPostgres } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { testDbKind } from '../test/harness.ts';

const serverRoot = path.resolve(import.meta.dirname, '../..');
const tsx = path.resolve(serverRoot, '../../node_modules/.bin/tsx');

/**
 * `npm run network:set` against a database of its own (PGlite in a DATA_DIR, or a scratch
 * PostgreSQL database under TEST_DB=postgres): the same audited change as the console.
 */
describe('network:set command line', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-netset-cli-'));
  let env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' };
  let dropScratch: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    if (testDbKind === 'postgres') {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string, 'coffer_t');
      env = { ...env, DATABASE_URL: scratch.url };
      dropScratch = scratch.drop;
    }
  });
  afterAll(async () => {
    await dropScratch?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (args: string[]) => {
    const res = spawnSync(tsx, ['src/cli/network-set.ts', ...args], {
      cwd: serverRoot,
      encoding: 'utf8',
      env: { ...process.env, EVM_RPC_URL: '', LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    });
    return { status: res.status, out: res.stdout + res.stderr };
  };
  /** Opens the command's database after it exited (PGlite allows one process at a time). */
  const inspect = async <T>(task: (db: Database) => Promise<T>): Promise<T> => {
    const db = env.DATABASE_URL ? await openPostgres(env.DATABASE_URL, 2) : await openPglite(path.join(dataDir, 'pgdata'));
    try {
      return await task(db);
    } finally {
      await db.close();
    }
  };

  it('explains its usage and exits 2 on bad arguments, before touching a database', () => {
    for (const args of [
      ['--network', 'x', '--set', 'confirmations=4', '--reason', 'r'],
      ['--network', '1', '--set', 'no_such_setting=1', '--set', 'confirmations=four', '--reason', 'r'],
      ['--network', '1', '--set', 'confirmations=4'],
    ]) {
      const res = run(args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.out).toContain('npm run network:set');
    }
    expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
  }, 120_000);

  it('changes settings through the audited function, says before -> after, and refuses what the console refuses', async () => {
    const eth = /#(\d+) ETH /.exec(run(['--list']).out)?.[1] as string;
    expect(eth).toMatch(/^\d+$/);
    const ok = run([
      '--network',
      eth,
      '--set',
      'confirmations=6',
      '--set',
      'min_withdraw=0.01',
      '--set',
      'reviewThreshold=null',
      '--reason',
      'deeper on mainnet',
    ]);
    expect(ok.out).toContain('confirmations: 3 -> 6');
    expect(ok.out).toContain('minWithdraw: 0.002 -> 0.01');
    expect(ok.out).toContain('reviewThreshold: 50 -> none');
    expect(ok.status, ok.out).toBe(0);

    const refused = run(['--network', eth, '--set', 'max_withdraw=0.001', '--reason', 'too low']);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('error 3027: Invalid network setting: maxWithdraw');
    const unknown = run(['--network', '999', '--set', 'confirmations=4', '--reason', 'x']);
    expect(unknown.status).toBe(1);
    expect(unknown.out).toContain('error 4004');

    const listed = run(['--list']);
    expect(listed.status).toBe(0);
    expect(listed.out).toMatch(/#\d+ ETH .*confirmations=6 .*minWithdraw=0\.01 .*reviewThreshold=none/);

    const rows = await inspect((db) =>
      db.sql.query<{
        actor: string;
        actor_user_id: number | null;
        reason: string;
        before: Record<string, unknown>;
        after: Record<string, unknown>;
      }>(`select actor, actor_user_id, reason, before, after from operator_actions where action = 'network.update'`),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: `cli:${os.userInfo().username}`,
      actor_user_id: null,
      reason: 'deeper on mainnet',
      before: { confirmations: 3, minWithdraw: '0.002', reviewThreshold: '50' },
      after: { confirmations: 6, minWithdraw: '0.01', reviewThreshold: null },
    });
  }, 180_000);
  it('edits the UTXO network (LTC regtest) without a gas cap, and refuses one on it', () => {
    const ltc = /#(\d+) LTC /.exec(run(['--list']).out)?.[1] as string;
    expect(ltc).toMatch(/^\d+$/);
    const ok = run(['--network', ltc, '--set', 'confirmations=6', '--set', 'withdraw_fee=0.002', '--reason', 'deeper on LTC']);
    expect(ok.out).toContain('confirmations: 2 -> 6');
    expect(ok.status, ok.out).toBe(0);
    const gas = run(['--network', ltc, '--set', 'gas_price_cap_wei=30000000000', '--reason', 'no gas on LTC']);
    expect(gas.status).toBe(1);
    expect(gas.out).toContain('error 3027: Invalid network setting: gasPriceCapWei');
  }, 180_000);
});
