import type { Balance, DepositAddress, DepositRecord, Network, PageResponse } from '@coffer/contract';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../ledger/audit.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { client, createUser, type TestUser } from '../test/users.ts';
import type { Database } from '../db/client.ts';
import type { ChainAdapter } from './adapter.ts';
import type { EvmAddress } from './evm.ts';
import { DepositWatcher } from './watcher.ts';

/** Chunks of two blocks, one read ahead: a few blocks on anvil make a pipelined catch-up. */
const SMALL_CHUNKS = { chunkBlocks: 2, chunksAhead: 1 };

/** A pipelined catch-up (decision 049) against a reorg between its chunks and a kill in the middle, on a real anvil. */
describe('deposit watcher catch-up in chunks', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let nets: Record<string, Network>;

  const live = () => t.chain.live!;
  const local = () => live().local!;
  const rpc = (method: string, params: unknown[]) => local().client.request({ method, params } as never) as Promise<unknown>;
  const watcher = (adapter: ChainAdapter = live().adapter) => new DepositWatcher(t.database, adapter, live().chainId, SMALL_CHUNKS);
  const cursor = async () =>
    Number(
      (
        await t.database.sql.query<{ block_number: number }>('select block_number from chain_cursors where chain_id = $1', [live().chainId])
      )[0]!.block_number,
    );
  const ethAddress = async (u: TestUser) =>
    (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: u.token,
        body: { currencyId: nets.ETH!.currencyId, networkId: nets.ETH!.id },
      })
    ).data.address as EvmAddress;
  const deposits = async (u: TestUser) =>
    (await call<PageResponse<DepositRecord>>('POST', '/api/deposit/getDepositList', { token: u.token, body: { page: 1, pageSize: 50 } }))
      .data.list;
  const available = async (u: TestUser) =>
    (await call<Balance>('GET', `/api/currency/balance/${nets.ETH!.currencyId}`, { token: u.token })).data.available;
  /** Sends `eth` to `to` in the next block and answers that block's number. */
  const depositBlock = async (to: EvmAddress, eth: string) => {
    const hash = await local().faucet(to, 'ETH', parseEther(eth));
    return Number((await local().client.waitForTransactionReceipt({ hash })).blockNumber);
  };
  /**
   * The real adapter, except that reads of blocks at or above `at` first wait for `gate`
   * (run once), and `done` counts the reads of blocks below it that have answered.
   */
  const gated = (at: number, gate: (done: () => number) => Promise<void>) => {
    const real = live().adapter;
    let answered = 0;
    let opened: Promise<void> | null = null;
    const wait = () => (opened ??= gate(() => answered));
    const adapter: ChainAdapter = {
      family: real.family,
      chainId: () => real.chainId(),
      head: () => real.head(),
      blockHeader: async (n) => {
        if (Number(n) >= at) await wait();
        const header = await real.blockHeader(n);
        answered++;
        return header;
      },
      scanDeposits: async (from, ...rest) => {
        if (Number(from) >= at) await wait();
        const found = await real.scanDeposits(from, ...rest);
        answered++;
        return found;
      },
      deriveDepositAddress: (i) => real.deriveDepositAddress(i),
      normalizeAddress: (s) => real.normalizeAddress(s),
    };
    return adapter;
  };
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  beforeAll(async () => {
    t = await createTestApp({}, { chain: true });
    call = client(t);
    const list = (await call<Network[]>('GET', '/api/currency/onchain')).data;
    nets = Object.fromEntries(list.map((n) => [n.code, n]));
  });
  afterAll(async () => {
    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await t?.close();
  });

  it('a chunk read ahead from a new fork is not recorded over its replaced parent; the next tick walks back', async () => {
    const u = await createUser(t);
    const address = await ethAddress(u);
    await watcher().tick();
    const c = await cursor();
    await local().mine(1);
    expect(await depositBlock(address, '3')).toBe(c + 2);
    await local().mine(4); // chunks [c+1, c+2], [c+3, c+4], [c+5, c+6]

    // The chunks after the first are read once the first has been (its two headers, the
    // cursor's and its scan: four answers), after a reorg that replaced c+2..c+6.
    const racing = gated(c + 3, async (done) => {
      while (done() < 4) await turn();
      await rpc('anvil_reorg', [5, []]);
    });
    const result = await watcher(racing).tick();
    expect(result.scanned).toEqual({ from: c + 1, to: c + 2 });
    expect(await cursor()).toBe(c + 2);
    expect((await deposits(u))[0]).toMatchObject({ status: 'pending', amount: '3' });

    const next = await watcher().tick();
    expect(next.rewoundTo).toBe(c + 1);
    for (let i = 0; i < 3 && (await watcher().tick()).scanned; i++);
    expect(await cursor()).toBe(c + 6);
    expect((await deposits(u))[0]).toMatchObject({ status: 'dropped', amount: '3' });
    expect(await available(u)).toBe('0');
    expect(await t.database.sql.query('select kind from chain_incidents where resolved_at is null')).toEqual([]);
  });

  it('a watcher killed between chunks resumes after the last one recorded: nothing missed, nothing credited twice', async () => {
    const u = await createUser(t);
    const address = await ethAddress(u);
    await watcher().tick();
    const c = await cursor();
    expect(await depositBlock(address, '1')).toBe(c + 1);
    await local().mine(1);
    expect(await depositBlock(address, '2')).toBe(c + 3);
    await local().mine(1);
    expect(await depositBlock(address, '4')).toBe(c + 5);
    await local().mine(4);

    // The process dies while the third chunk is read: the first two are recorded.
    const dying = gated(c + 5, async () => {
      throw new Error('killed');
    });
    await expect(watcher(dying).tick()).rejects.toThrow('killed');
    expect(await cursor()).toBe(c + 4);
    expect((await deposits(u)).map((d) => d.amount).sort()).toEqual(['1', '2']);

    // Another watcher (a restarted process) takes over from the stored cursor.
    for (let i = 0; i < 10 && (await watcher().tick()).scanned; i++);
    await watcher().tick();
    const rows = await deposits(u);
    expect(rows.map((d) => [d.amount, d.status]).sort()).toEqual([
      ['1', 'credited'],
      ['2', 'credited'],
      ['4', 'credited'],
    ]);
    expect(await available(u)).toBe('7');
    const [entries] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from journal_entries e join deposits d on d.entry_id = e.id where d.user_id = $1`,
      [u.uid],
    );
    expect(entries!.n).toBe(3);
    // Every block hash in the window was kept across the chunks: a contiguous run up to the cursor.
    const kept = await t.database.sql.query<{ block_number: number }>(
      'select block_number from chain_blocks where chain_id = $1 and block_number > $2 order by block_number',
      [live().chainId, c],
    );
    const tip = await cursor();
    expect(kept.map((b) => Number(b.block_number))).toEqual(Array.from({ length: tip - c }, (_, i) => c + 1 + i));
  });

  it('a watcher killed after recording chunks but before their credits: the next tick credits them, once', async () => {
    const u = await createUser(t);
    const address = await ethAddress(u);
    await watcher().tick();
    const c = await cursor();
    expect(await depositBlock(address, '5')).toBe(c + 1);
    await local().mine(1);
    expect(await depositBlock(address, '6')).toBe(c + 3);
    await local().mine(4); // chunks [c+1, c+2], [c+3, c+4], [c+5, c+6], [c+7]

    // The records commit; every credit dies (the process killed as each one starts).
    const dying: Database = {
      ...t.database,
      sql: {
        ...t.database.sql,
        query: (text, params, opts) =>
          text.includes('coffer_deposit_credit_due') ? Promise.reject(new Error('killed')) : t.database.sql.query(text, params, opts),
      },
    };
    await expect(new DepositWatcher(dying, live().adapter, live().chainId, SMALL_CHUNKS).tick()).rejects.toThrow('killed');
    expect(await cursor()).toBe(c + 7);
    expect((await deposits(u)).map((d) => [d.amount, d.status]).sort()).toEqual([
      ['5', 'pending'],
      ['6', 'pending'],
    ]);

    // The restarted watcher is at the tip: its tick credits what is due there.
    const next = await watcher().tick();
    expect(next.scanned).toBeNull();
    expect(next.credited).toBe(2);
    await watcher().tick();
    expect((await deposits(u)).map((d) => [d.amount, d.status]).sort()).toEqual([
      ['5', 'credited'],
      ['6', 'credited'],
    ]);
    expect(await available(u)).toBe('11');
  });

  it('credits each chunk behind its record: a catch-up answers every deposit credited once', async () => {
    const u = await createUser(t);
    const address = await ethAddress(u);
    await watcher().tick();
    const c = await cursor();
    for (let i = 0; i < 3; i++) {
      await depositBlock(address, '1');
      await local().mine(1);
    }
    await local().mine(3);
    const result = await watcher().tick();
    expect(result.scanned).toEqual({ from: c + 1, to: c + 9 });
    expect(result.credited).toBe(3);
    expect((await deposits(u)).map((d) => d.status)).toEqual(['credited', 'credited', 'credited']);
    expect(await available(u)).toBe('3');
  });
});
