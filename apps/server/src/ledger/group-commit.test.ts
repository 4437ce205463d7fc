import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../core/session.ts';
import type { Database } from '../db/client.ts';
import { type BatchItem, transferBatcher } from '../modules/transfer/batcher.ts';
import { createTestDatabase } from '../test/harness.ts';
import { createUser, fund, type TestUser } from '../test/users.ts';
import { auditLedger } from './audit.ts';
import { type BatchedRow, GroupCommit, type GroupCommitStatement } from './group-commit.ts';

/** A driver error as PostgreSQL and PGlite raise it: a SQLSTATE in `code`, and a severity. */
const sqlError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

/**
 * A database that runs a "batch statement" over string items: the whole statement fails with
 * 22021 when any item contains a NUL (as PostgreSQL refuses such a text parameter), and fails
 * without a SQLSTATE (connection lost) when an item says so.
 */
function fakeDatabase() {
  const calls: string[][] = [];
  const database = {
    kind: 'pglite',
    sql: {
      async query(_text: string, params: unknown[]) {
        const items = params[0] as string[];
        calls.push(items);
        await new Promise((r) => setTimeout(r, 1));
        if (items.some((s) => s.includes('lost'))) throw new Error('Connection terminated unexpectedly');
        if (items.some((s) => s.includes('pipe'))) throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        if (items.some((s) => s.includes('\u0000'))) throw sqlError('22021', 'invalid byte sequence for encoding "UTF8": 0x00');
        return items.map((s, i) => ({ b_i: i + 1, value: s.toUpperCase() }));
      },
    },
  } as unknown as Database;
  return { database, calls };
}

const UPPER: GroupCommitStatement<string, BatchedRow & { value: string }, string> = {
  name: 'upper_v1',
  sql: 'select * from upper_batch($1)',
  params: (items) => [items],
  row: (raw) => raw.value,
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
});
