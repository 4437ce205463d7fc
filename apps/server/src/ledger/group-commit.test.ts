import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../core/session.ts';
import type { Database } from '../db/client.ts';
import { ErrorCode } from '@coffer/contract';
import { type BatchItem, TRANSFER_BATCH, transferBatcher } from '../modules/transfer/batcher.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createUser, fund, type TestUser } from '../test/users.ts';
import { auditLedger } from './audit.ts';
import {
  ALONE_AFTER_CONTENTION,
  type BatchedRow,
  BUSY_STATE,
  GroupCommit,
  type GroupCommitStatement,
  MAX_ATTEMPTS,
  MAX_BATCH_ITEMS,
  PIPELINE_DEPTH,
} from './group-commit.ts';

/** A driver error as PostgreSQL and PGlite raise it: a SQLSTATE in `code`, and a severity. */
const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

/**
 * A database that runs a "batch statement" over string items: the whole statement fails with
 * 22021 when any item contains a NUL (as PostgreSQL refuses such a text parameter), and fails
 * without a SQLSTATE (connection lost) when an item says so. `before` may throw first (a
 * deadlock of the whole statement); an item "deadlock N" is refused in its row (b_state 40P01)
 * in its first N runs.
 */
function fakeDatabase(before?: (call: number) => void) {
  const calls: string[][] = [];
  const runs = new Map<string, number>();
  const database = {
    kind: 'pglite',
    sql: {
      async query(_text: string, params: unknown[]) {
        const items = params[0] as string[];
        calls.push(items);
        await new Promise((r) => setTimeout(r, 1));
        before?.(calls.length);
        if (items.some((s) => s.includes('lost'))) throw new Error('Connection terminated unexpectedly');
        if (items.some((s) => s.includes('pipe'))) throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        if (items.some((s) => s.includes('\u0000'))) throw sqlError('22021', 'invalid byte sequence for encoding "UTF8": 0x00');
        return items.map((s, i) => {
          const run = (runs.get(s) ?? 0) + 1;
          runs.set(s, run);
          const deadlocks = Number(s.match(/^deadlock (\d+)/)?.[1] ?? 0);
          return { b_i: i + 1, b_state: run <= deadlocks ? '40P01' : null, value: s.toUpperCase() };
        });
      },
    },
  } as unknown as Database;
  return { database, calls };
}

/** Polls until `done` (a few turns of the event loop at most in these tests). */
async function until(done: () => boolean) {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

interface FakeLane {
  /** Answers the oldest statement waiting on this connection (they run in order, pipelined). */
  finish(): void;
  released: 'ok' | 'error' | null;
}

/**
 * A PostgreSQL-like database whose writer takes held connections (SqlClient.lane). Each
 * statement waits for its lane's finish(); a call records which lane ran which items and
 * which items had been answered by then.
 */
function laneDatabase() {
  const calls: { lane: number; items: string[]; wait: unknown; answeredBefore: string[] }[] = [];
  const lanes: FakeLane[] = [];
  const answered: string[] = [];
  const database = {
    kind: 'postgres',
    sql: {
      query: () => Promise.reject(new Error('the writer must use its lane')),
      async lane() {
        const index = lanes.length;
        const pending: (() => void)[] = [];
        const lane: FakeLane = {
          finish: () => pending.shift()?.(),
          released: null,
        };
        lanes.push(lane);
        return {
          async query(_text: string, params: unknown[]) {
            const items = params[0] as string[];
            calls.push({ lane: index, items, wait: params[1], answeredBefore: [...answered] });
            await new Promise<void>((resolve) => {
              pending.push(resolve);
            });
            if (items.some((s) => s.includes('lost'))) throw new Error('Connection terminated unexpectedly');
            return items.map((s, i) => ({ b_i: i + 1, b_state: null, value: s.toUpperCase() }));
          },
          release(error?: Error) {
            lane.released = error ? 'error' : 'ok';
          },
        };
      },
    },
  } as unknown as Database;
  return { database, calls, lanes, answered };
}

const UPPER: GroupCommitStatement<string, BatchedRow & { b_state: string | null; value: string }, string> = {
  name: 'upper_v1',
  sql: 'select * from upper_batch($1)',
  params: (items) => [items],
  state: (raw) => raw.b_state,
  row: (raw) => (raw.b_state ? `refused ${raw.b_state}` : raw.value),
};

describe('GroupCommit', () => {
  it('sends the items of one turn as one statement (happy path: one round trip)', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    const items = Array.from({ length: 10 }, (_, i) => `item ${i}`);
    expect(await Promise.all(items.map((s) => writer.submit(s)))).toEqual(items.map((s) => s.toUpperCase()));
    expect(calls).toEqual([items]);
  });

  it('runs the items of a batch whose statement failed again one at a time: a bad item fails alone', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    const items = Array.from({ length: 10 }, (_, i) => (i === 3 || i === 7 ? `bad\u0000${i}` : `item ${i}`));
    const results = await Promise.allSettled(items.map((s) => writer.submit(s)));
    results.forEach((r, i) => {
      if (i === 3 || i === 7) expect(r).toMatchObject({ status: 'rejected', reason: { code: '22021' } });
      else expect(r).toEqual({ status: 'fulfilled', value: `ITEM ${i}` });
    });
    // The batch once, then each item once on its own.
    expect(calls).toEqual([items, ...items.map((s) => [s])]);
  });

  it('does not run items again when the statement failed without a SQLSTATE (outcome unknown)', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    for (const items of [
      ['a', 'b', 'connection lost', 'c'],
      ['a', 'broken pipe', 'c'],
    ]) {
      calls.length = 0;
      const results = await Promise.allSettled(items.map((s) => writer.submit(s)));
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      expect(calls).toEqual([items]);
    }
  });

  it('does not run a failed batch of one again', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    await expect(writer.submit('alone\u0000')).rejects.toMatchObject({ code: '22021' });
    expect(calls).toEqual([['alone\u0000']]);
  });

  it('runs a batch the database refused with a deadlock (40P01) again, once, and every item lands', async () => {
    const { database, calls } = fakeDatabase((call) => {
      if (call === 1) throw sqlError('40P01', 'deadlock detected');
    });
    const writer = new GroupCommit(database, UPPER);
    const items = ['a', 'b', 'c'];
    expect(await Promise.all(items.map((s) => writer.submit(s)))).toEqual(['A', 'B', 'C']);
    expect(calls).toEqual([items, items]);
  });

  it('runs an item its row refused with 40P01 again; the others are answered from the first run', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    const items = ['a', 'deadlock 1', 'c'];
    expect(await Promise.all(items.map((s) => writer.submit(s)))).toEqual(['A', 'DEADLOCK 1', 'C']);
    expect(calls).toEqual([items, ['deadlock 1']]);
  });

  it(`gives up after ${MAX_ATTEMPTS} runs and answers the refusal as it is`, async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER);
    expect(await writer.submit('deadlock 99')).toBe('refused 40P01');
    expect(calls).toHaveLength(MAX_ATTEMPTS);
  });

  it('refuses with 1002 what exceeds the queue bound, and never sends it', async () => {
    const { database, calls } = fakeDatabase();
    const writer = new GroupCommit(database, UPPER, { maxQueued: 3 });
    const items = ['a', 'b', 'c', 'd', 'e'];
    // All in one turn: the queue fills before the first batch leaves.
    const results = await Promise.allSettled(items.map((s) => writer.submit(s)));
    expect(results.slice(0, 3)).toEqual(['A', 'B', 'C'].map((value) => ({ status: 'fulfilled', value })));
    for (const r of results.slice(3)) expect(r).toMatchObject({ status: 'rejected', reason: { bizCode: ErrorCode.TOO_MANY_REQUESTS } });
    expect(calls).toEqual([['a', 'b', 'c']]);
    // Once the queue drained, items are taken again.
    expect(await writer.submit('f')).toBe('F');
  });

  /** A PostgreSQL-like database whose items named "held ..." are on accounts another batch holds. */
  /**
   * `firstHeld`: the first batch stays in flight until the test releases it, so what the test
   * sends meanwhile is beside it whatever the machine's load (a 5 ms timer alone could fire
   * before the test's next turn on a busy machine).
   */
  function busyDatabase() {
    const calls: { items: string[]; wait: boolean[] }[] = [];
    const stats = { running: 0, mostAtOnce: 0 };
    let release = () => {};
    const firstHeld = new Promise<void>((r) => {
      release = r;
    });
    const database = {
      kind: 'postgres',
      sql: {
        async query(_text: string, params: unknown[]) {
          const [items, wait] = params as [string[], boolean[]];
          calls.push({ items, wait });
          stats.mostAtOnce = Math.max(stats.mostAtOnce, ++stats.running);
          if (calls.length === 1) await firstHeld;
          await new Promise((r) => setTimeout(r, 5));
          stats.running--;
          // Told not to wait, a held item comes back BUSY, having done nothing.
          return items.map((s, i) => ({
            b_i: i + 1,
            b_state: s.startsWith('held') && !wait[i] ? BUSY_STATE : null,
            value: s.toUpperCase(),
          }));
        },
      },
    } as unknown as Database;
    const statement: GroupCommitStatement<string, BatchedRow & { b_state: string | null; value: string }, string> = {
      ...UPPER,
      params: (items, wait) => [items, wait],
    };
    return { writer: new GroupCommit(database, statement, { maxInFlight: 2 }), calls, stats, release };
  }
  const nextTurn = () => new Promise((r) => setImmediate(r));

  it('runs two batches at once when the statement allows it; an item turned away (BUSY) is sent once more, waiting', async () => {
    const { writer, calls, stats, release } = busyDatabase();
    const first = ['a', 'held b'].map((s) => writer.submit(s));
    await nextTurn();
    const second = ['c', 'd', 'held e'].map((s) => writer.submit(s));
    await until(() => calls.length === 2);
    release();
    expect(await Promise.all([...first, ...second])).toEqual(['A', 'HELD B', 'C', 'D', 'HELD E']);
    expect(stats.mostAtOnce).toBe(2);
    // Alone in flight, the first batch waits; the second, beside it, does not; the turned-away item is sent again, waiting.
    expect(calls[0]).toEqual({ items: ['a', 'held b'], wait: [true, true] });
    expect(calls[1]).toEqual({ items: ['c', 'd', 'held e'], wait: [false, false, false] });
    expect(calls.slice(2)).toEqual([{ items: ['held e'], wait: [true] }]);
  });

  it(`runs ${ALONE_AFTER_CONTENTION} batches alone after a batch beside another came back mostly BUSY (a hot account)`, async () => {
    const { writer, calls, stats, release } = busyDatabase();
    const first = writer.submit('a');
    await nextTurn();
    const hot = ['held b', 'held c'].map((s) => writer.submit(s));
    await until(() => calls.length === 2);
    release();
    await Promise.all([first, ...hot]);
    stats.mostAtOnce = 0;
    const later: Promise<string>[] = [];
    for (let round = 0; round < 6; round++) {
      later.push(writer.submit(`x${round}`));
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await Promise.all(later)).toEqual(later.map((_, i) => `X${i}`));
    expect(stats.mostAtOnce).toBe(1);
  });

  it('sends the next batch on its held connection before the batch before is answered', async () => {
    const { database, calls, lanes, answered } = laneDatabase();
    // One in flight: the next batch goes when this one's answer arrives, before it is written.
    const writer = new GroupCommit(database, UPPER, { maxInFlight: 1 });
    const submit = async (s: string) => {
      const v = await writer.submit(s);
      answered.push(s);
      return v;
    };
    const first = submit('a');
    await until(() => calls.length === 1);
    const rest = ['b', 'c'].map(submit);
    lanes[0]!.finish();
    await until(() => calls.length === 2);
    // Written in the same turn as the first answer arrived: nothing of it answered yet.
    expect(calls[1]).toEqual({ lane: 0, items: ['b', 'c'], answeredBefore: [] });
    lanes[0]!.finish();
    expect(await Promise.all([first, ...rest])).toEqual(['A', 'B', 'C']);
    // One connection for both, given back once nothing waits.
    expect(lanes.map((l) => l.released)).toEqual(['ok']);
  });

  it('pipelines the next batch on the same connection, every item waiting: they run one after another', async () => {
    const { database, calls, lanes } = laneDatabase();
    const writer = new GroupCommit(database, { ...UPPER, params: (items, wait) => [items, wait] });
    const a = writer.submit('a');
    await until(() => calls.length === 1);
    const b = writer.submit('b');
    await until(() => calls.length === 2);
    const c = writer.submit('c');
    // PIPELINE_DEPTH batches at most: the third item waits for the first to come back.
    await new Promise((r) => setImmediate(r));
    expect(calls.length).toBe(PIPELINE_DEPTH);
    expect(calls.map((call) => [call.lane, call.items, call.wait])).toEqual([
      [0, ['a'], [true]],
      [0, ['b'], [true]],
    ]);
    lanes[0]!.finish();
    await until(() => calls.length === 3);
    expect(calls[2]).toMatchObject({ lane: 0, items: ['c'], wait: [true] });
    lanes[0]!.finish();
    lanes[0]!.finish();
    expect(await Promise.all([a, b, c])).toEqual(['A', 'B', 'C']);
    expect(lanes.map((l) => l.released)).toEqual(['ok']);
  });

  it('closes a held connection that was lost, and takes a new one for the next batch', async () => {
    const { database, calls, lanes } = laneDatabase();
    const writer = new GroupCommit(database, UPPER);
    const lost = writer.submit('lost');
    await until(() => calls.length === 1);
    lanes[0]!.finish();
    await expect(lost).rejects.toThrow('Connection terminated');
    const next = writer.submit('next');
    await until(() => calls.length === 2);
    lanes[1]!.finish();
    expect(await next).toBe('NEXT');
    expect(lanes.map((l) => l.released)).toEqual(['error', 'ok']);
  });

  it('refuses a batch size the ledger functions would refuse', () => {
    const { database } = fakeDatabase();
    expect(() => new GroupCommit(database, UPPER, { maxBatch: MAX_BATCH_ITEMS + 1 })).toThrow(/maxBatch/);
  });
});

describe('transfer batches with a poisoned item (real database)', () => {
  let database: Database;
  let senders: TestUser[];
  let sink: TestUser;
  let usdt: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    const t = { database };
    senders = [];
    for (let i = 0; i < 6; i++) {
      const u = await createUser(t, { email: `sender${i}@group-commit.test` });
      await fund(t, u.uid, 'USDT', '1000');
      senders.push(u);
    }
    sink = await createUser(t, { email: 'sink@group-commit.test' });
    const [row] = await database.sql.query<{ id: number }>(`select id from currencies where code = 'USDT'`);
    usdt = Number(row!.id);
  });
  afterAll(async () => {
    await database?.close();
  });

  const item = (from: TestUser, memo: string | null): BatchItem => ({
    tokenHash: hashToken(from.token.replace(/^Bearer /, '')),
    toUid: sink.uid,
    toEmail: null,
    currencyId: usdt,
    amount: '1',
    memo,
    key: null,
    hash: null,
    stepped: false,
  });

  it('lands every honest transfer beside NUL memos in the same batches, each exactly once', async () => {
    const writer = transferBatcher(database);
    // Settled at once, so that no rejection goes unhandled while the others run.
    const settle = (i: BatchItem) => Promise.allSettled([writer.submit(i)]).then(([r]) => r!);
    const honest: ReturnType<typeof settle>[] = [];
    const poisoned: ReturnType<typeof settle>[] = [];
    for (let round = 0; round < 5; round++) {
      // All of a round is submitted in one turn, so it shares batches.
      for (let i = 0; i < 40; i++) honest.push(settle(item(senders[i % 4]!, `honest ${round}.${i}`)));
      poisoned.push(settle(item(senders[4]!, 'bad\u0000memo')), settle(item(senders[5]!, '\u0000')));
      await new Promise((r) => setImmediate(r));
    }
    const answers = await Promise.all(honest);
    const failed = answers.filter((a) => a.status === 'rejected' || a.value.b_state !== null).length;
    expect(failed, `honest transfers that failed, of ${answers.length}`).toBe(0);
    const refused = await Promise.all(poisoned);
    expect(refused.map((r) => r.status === 'rejected' && (r.reason as { code?: string }).code)).toEqual(poisoned.map(() => '22021'));

    const balances = await database.sql.query<{ user_id: number; balance: string }>(
      `select user_id, trim_scale(balance)::text as balance from accounts where kind = 'available' and currency_id = $1 and user_id = any($2)`,
      [usdt, [...senders.map((s) => s.uid), sink.uid]],
    );
    // Balances compared as exact decimal strings, never as JS numbers.
    const byUser = new Map(balances.map((b) => [Number(b.user_id), b.balance]));
    expect(byUser.get(sink.uid)).toBe('200');
    for (const s of senders.slice(0, 4)) expect(byUser.get(s.uid)).toBe('950');
    for (const s of senders.slice(4)) expect(byUser.get(s.uid)).toBe('1000');
    const [count] = await database.sql.query<{ n: number }>('select count(*)::int as n from transfers');
    expect(Number(count!.n)).toBe(200);
    const report = await auditLedger(database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('MAX_BATCH_ITEMS is the limit the batch functions enforce (CB900 beyond it)', async () => {
    for (const fn of ['coffer_transfer_batch', 'coffer_swap_batch']) {
      const rows = await database.sql.query<{ src: string }>('select prosrc as src from pg_proc where proname = $1', [fn]);
      expect(rows, fn).toHaveLength(1);
      // The item count is v_n in coffer_transfer_batch, v_item_count in coffer_swap_batch (migration 0066).
      const limits = [...rows[0]!.src.matchAll(/IF v_(?:n|item_count) > (\d+) THEN/g)].map((m) => Number(m[1]));
      expect(limits, fn).toEqual([MAX_BATCH_ITEMS]);
    }
  });

  it('a full queue answers 1002 and writes nothing for the refused transfers', async () => {
    const writer = new GroupCommit(database, TRANSFER_BATCH, { maxQueued: 3 });
    const from = senders[0]!;
    const memos = ['queued 1', 'queued 2', 'queued 3', 'refused 4', 'refused 5'];
    const results = await Promise.allSettled(memos.map((memo) => writer.submit(item(from, memo))));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.b_state : (r.reason as { bizCode?: number }).bizCode))).toEqual([
      null,
      null,
      null,
      ErrorCode.TOO_MANY_REQUESTS,
      ErrorCode.TOO_MANY_REQUESTS,
    ]);
    const written = await database.sql.query<{ memo: string }>('select memo from transfers where memo = any($1) order by memo', [memos]);
    expect(written.map((w) => w.memo)).toEqual(['queued 1', 'queued 2', 'queued 3']);
  });
});
