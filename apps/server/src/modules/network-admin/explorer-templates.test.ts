import fs from 'node:fs';
import type { AdminNetwork, Network, NetworkUpdateData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { updateNetwork } from './service.ts';

/**
 * A network's explorer templates (drizzle/0061, docs/decisions/058-explorer-transaction-links.md):
 * the transaction page set and audited like the address page, and both in the public network
 * list the phone app builds its links from.
 */
describe('admin: explorer templates of a network', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;
  let eth: AdminNetwork;

  const set = (changes: Record<string, unknown>, token = operator.token) =>
    call<NetworkUpdateData>('POST', `/api/admin/networks/${eth.id}`, { token, body: { changes, reason: 'explorer links' } });
  const admin = async () => (await call<AdminNetwork[]>('GET', '/api/admin/networks', { token: operator.token })).data;
  const publicList = async () => (await call<Network[]>('GET', '/api/currency/onchain')).data;
  const audit = () =>
    t.database.sql.query<{ actor: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
      `select actor, before, after from operator_actions where action = 'network.update' and target_id = $1 order by id`,
      [String(eth.id)],
    );

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { chain: true });
    call = client(t);
    operator = await createUser(t, { role: 'operator' });
    user = await createUser(t);
    eth = (await admin()).find((n) => n.code === 'ETH' && n.chainId === 31337)!;
  });
  afterAll(() => t?.close());

  it('the local chains have no explorer: no templates, in the admin and the public list', async () => {
    expect(eth).toMatchObject({ explorerUrl: null, explorerTxUrl: null });
    for (const n of await publicList()) expect(n, n.name).toMatchObject({ explorerUrl: null, explorerTxUrl: null });
  });

  it('sets the transaction template with an audit row, and the phone app reads both templates', async () => {
    const res = await set({ explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: '  https://etherscan.io/tx/{tx}  ' });
    expect(res).toMatchObject({
      code: 0,
      data: { explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: 'https://etherscan.io/tx/{tx}', changed: true },
    });
    const [row] = await audit();
    expect(row).toMatchObject({
      actor: operator.email,
      before: { explorerUrl: null, explorerTxUrl: null },
      after: { explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: 'https://etherscan.io/tx/{tx}' },
    });
    expect((await publicList()).find((n) => n.id === eth.id)).toMatchObject({
      explorerUrl: 'https://etherscan.io/address/{address}',
      explorerTxUrl: 'https://etherscan.io/tx/{tx}',
    });
    // Cleared alone: the address template stays, the audit row holds the one change.
    expect((await set({ explorerTxUrl: null })).data).toMatchObject({
      explorerTxUrl: null,
      explorerUrl: 'https://etherscan.io/address/{address}',
    });
    expect((await audit()).at(-1)).toMatchObject({
      before: { explorerTxUrl: 'https://etherscan.io/tx/{tx}' },
      after: { explorerTxUrl: null, explorerUrl: 'https://etherscan.io/address/{address}' },
    });
    // The same again: nothing written.
    expect((await set({ explorerTxUrl: null })).data.changed).toBe(false);
    expect(await audit()).toHaveLength(2);
  });

  it('refuses a bad template: malformed (1001), and the SQL function names the setting (3027) on every path', async () => {
    const before = await admin();
    for (const bad of [
      'ftp://scan.example/tx/{tx}',
      'https://etherscan.io/tx/',
      'https://etherscan.io/address/{address}',
      'javascript:alert(1)//{tx}',
      'https://scan.example/a\u0007/{tx}',
      'https://scan.example/a b/{tx}',
      `https://scan.example/${'a'.repeat(300)}/{tx}`,
      '{tx}',
    ]) {
      expect((await set({ explorerTxUrl: bad })).code, bad).toBe(1001);
    }
    expect((await set({ explorerTxUrl: 'https://etherscan.io/tx/{tx}' }, user.token)).status).toBe(403);
    // A caller without the schema (the command line's service, SQL) meets the SQL function's check.
    const ctx = { clients: () => undefined, servedChainIds: [31337], hotAddress: t.chain.hotAddress };
    const by = { actorUserId: operator.uid, actor: operator.email };
    for (const bad of ['https://etherscan.io/tx/', 'https://scan.example/a b/{tx}', `https://x.example/${'a'.repeat(300)}{tx}`]) {
      await expect(
        updateNetwork(t.database, ctx, by, eth.id, { changes: { explorerTxUrl: bad }, reason: 'bad' }),
        bad,
      ).rejects.toMatchObject({ bizCode: 3027, detail: 'explorerTxUrl' });
    }
    const sql = t.database.sql.query("select coffer_network_set($1, '{\"explorerTxUrl\": \"http://x/\"}'::jsonb, $2, null, 'sql', 'bad')", [
      eth.id,
      t.chain.hotAddress,
    ]);
    await expect(sql).rejects.toThrow(/explorerTxUrl/);
    expect(await admin()).toEqual(before);
  });

  it('the migration derives the transaction page from an address page of the usual shape, and only then', async () => {
    const migration = fs.readFileSync(new URL('../../../drizzle/0061_explorer_tx_links.sql', import.meta.url), 'utf8');
    const seed = migration.split('--> statement-breakpoint').find((s) => s.includes('UPDATE "networks" SET "explorer_tx_url"'))!;
    const shapes: [string, string | null][] = [
      ['https://etherscan.io/address/{address}', 'https://etherscan.io/tx/{tx}'],
      ['https://mempool.space/testnet/address/{address}', 'https://mempool.space/testnet/tx/{tx}'],
      ['https://scan.example/account?a={address}', null],
      ['https://scan.example/address/{address}?tab=tokens', null],
    ];
    const ids = (await admin()).slice(0, shapes.length).map((n) => n.id);
    for (const [i, [url]] of shapes.entries()) {
      await t.database.sql.query('update networks set explorer_url = $2, explorer_tx_url = null where id = $1', [ids[i], url]);
    }
    await t.database.sql.query(seed.replace(/^--.*$/gm, ''));
    const rows = await t.database.sql.query<{ id: number; explorer_tx_url: string | null }>(
      'select id, explorer_tx_url from networks where id = any($1::int[])',
      [ids],
    );
    for (const [i, [url, tx]] of shapes.entries()) expect(rows.find((r) => r.id === ids[i])?.explorer_tx_url, url).toBe(tx);
  });
});
