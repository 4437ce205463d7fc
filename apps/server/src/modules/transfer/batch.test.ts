import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { databaseUrl } from '../../db/scratch.ts';
import { auditLedger } from '../../ledger/audit.ts';
import pg from 'pg';
import { createTestDatabase, testDbKind } from '../../test/harness.ts';
import { createUser, fund, type TestUser } from '../../test/users.ts';

/**
 * coffer_transfer_batch() straight in SQL (drizzle/0022, decision 028): the clean items are
 * simulated on the locked balances and written set-based; every other item runs after them in
 * its own subtransaction. One batch mixing every kind of item must answer each one as a batch of
 * one would, move exactly the clean money, and leave the audit (balance_after chains in id
 * order, balances equal to postings) clean.
 */
describe('coffer_transfer_batch: clean items set-based, the rest one by one', () => {
  let db: Database;
  /** What the user helpers take: the database. */
  let t: { database: Database };
  let usdt: number;
  let seq = 0;
  const key = () => `batch-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = { database: db };
    usdt = Number((await db.sql.query<{ id: number }>(`select id from currencies where code = 'USDT'`))[0]!.id);
  });
  afterAll(async () => {
    const report = await auditLedger(db);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await db.close();
  });

  const tokenHash = async (u: TestUser) =>
    (await db.sql.query<{ token_hash: string }>('select token_hash from sessions where user_id = $1', [u.uid]))[0]!.token_hash;
  const available = async (u: TestUser) =>
    (
      await db.sql.query<{ balance: string }>(
        `select coalesce((select trim_scale(balance)::text from accounts where user_id = $1 and currency_id = $2 and kind = 'available'), 'none') as balance`,
        [u.uid, usdt],
      )
    )[0]!.balance;

  interface Item {
    from: string;
    to?: number;
    email?: string;
    amount: string;
    key?: string;
    hash?: string;
    memo?: string;
    /** A second factor was checked for it (the step-up policy, decision 033). */
    stepped?: boolean;
  }
  interface Row {
    b_i: number;
    b_state: string | null;
    t_id: string | null;
    t_entry: string | null;
    t_to: string | null;
    t_replayed: boolean | null;
  }
  const BATCH_SQL = `select b_i, b_state, t_id, t_entry, t_to, t_replayed
    from coffer_transfer_batch($1, $2, $3, $4, $5::numeric[], $6, $7, $8, $9, $10) order by b_i`;
  const batchParams = (items: Item[], wait?: boolean[]) => [
    items.map((i) => i.from),
    items.map((i) => i.to ?? null),
    items.map((i) => i.email ?? null),
    items.map(() => usdt),
    items.map((i) => i.amount),
    items.map((i) => i.memo ?? null),
    items.map((i) => i.key ?? null),
    items.map((i) => i.hash ?? (i.key ? `hash-${i.key}` : null)),
    wait ?? null,
    items.map((i) => i.stepped ?? false),
  ];
  const batch = (items: Item[], wait?: boolean[]) => db.sql.query<Row>(BATCH_SQL, batchParams(items, wait));

  it('answers a mixed batch item by item, as the items would be answered one at a time', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    const [alice, bob, carol, dave, erin] = five as [TestUser, TestUser, TestUser, TestUser, TestUser];
    await fund(t, alice.uid, 'USDT', '10');
    await fund(t, erin.uid, 'USDT', '1');
    const [a, e] = [await tokenHash(alice), await tokenHash(erin)];
    const [k1, k2, k3] = [key(), key(), key()];

    const rows = await batch([
      { from: a, to: bob.uid, amount: '4', key: k1 }, // 1 clean
      { from: a, email: carol.email.toUpperCase(), amount: '4', key: k2, memo: 'lunch' }, // 2 clean, by e-mail
      { from: a, to: bob.uid, amount: '4', key: k3 }, // 3 only 2 left after 1 and 2: 3001, kept under k3
      { from: 'no-such-session', to: bob.uid, amount: '1' }, // 4 no session
      { from: a, to: alice.uid, amount: '1' }, // 5 oneself
      { from: a, to: 2_000_000_000, amount: '1' }, // 6 no such recipient
      { from: e, to: dave.uid, amount: '0.5' }, // 7 clean: dave's first USDT, his account is opened
      { from: a, to: bob.uid, amount: '4', key: k1 }, // 8 twin of 1 in the same batch: its answer, replayed
      { from: a, to: bob.uid, amount: '5', key: k2, hash: 'another-body' }, // 9 k2 with another body: 3010
      { from: a, to: bob.uid, amount: '0.0000001' }, // 10 more decimals than USDT has: 3002
      { from: e, to: carol.uid, amount: '0.5' }, // 11 clean: erin's last 0.5 after item 7
      { from: e, to: carol.uid, amount: '0.01' }, // 12 erin has nothing left: 3001
    ]);
    const states = rows.map((r) => r.b_state);
    expect(states).toEqual([null, null, 'CB001', 'AUTH', 'CB005', 'CB004', null, null, 'CB010', 'CB002', null, 'CB001']);
    expect(rows[0]!.t_replayed).toBe(false);
    expect(rows[7]).toMatchObject({ t_id: rows[0]!.t_id, t_entry: rows[0]!.t_entry, t_replayed: true });
    expect(Number(rows[1]!.t_to)).toBe(carol.uid);

    expect(await Promise.all([alice, bob, carol, dave, erin].map((u) => available(u)))).toEqual(['2', '4', '4.5', '0.5', '0']);
    // The refusal under k3 is kept: the same request later still answers 3001, though alice could pay now.
    await fund(t, alice.uid, 'USDT', '100');
    expect((await batch([{ from: a, to: bob.uid, amount: '4', key: k3 }]))[0]!.b_state).toBe('CB001');
    // A key taken by an earlier batch replays that batch's transfer.
    const again = await batch([{ from: a, email: carol.email, amount: '4', key: k2, memo: 'lunch' }]);
    expect(again[0]).toMatchObject({ b_state: null, t_id: rows[1]!.t_id, t_replayed: true });
    const memo = await db.sql.query<{ memo: string; via: string }>('select memo, via from transfers where id = $1', [rows[1]!.t_id]);
    expect(memo[0]).toEqual({ memo: 'lunch', via: 'email' });
  });

  it('chains balance_after in id order when one account takes part many times in a batch', async () => {
    const [hub, ...spokes] = await Promise.all(Array.from({ length: 6 }, () => createUser(t)));
    await fund(t, hub!.uid, 'USDT', '3');
    const h = await tokenHash(hub!);
    const out = spokes.map((s) => ({ from: h, to: s.uid, amount: '0.7' }));
    const back = await Promise.all(spokes.slice(0, 2).map(async (s) => ({ from: await tokenHash(s), to: hub!.uid, amount: '0.1' })));
    // 0.7 x 4 = 2.8 of 3, then the two 0.1 come back, then the fifth 0.7 fails on 0.4 left.
    const rows = await batch([...out.slice(0, 4), ...back, out[4]!]);
    expect(rows.map((r) => r.b_state)).toEqual([null, null, null, null, null, null, 'CB001']);
    expect(await available(hub!)).toBe('0.4');
    const chain = await db.sql.query<{ amount: string; balance_after: string }>(
      `select trim_scale(p.amount)::text as amount, trim_scale(p.balance_after)::text as balance_after
         from postings p join accounts a on a.id = p.account_id
        where a.user_id = $1 and a.currency_id = $2 order by p.id`,
      [hub!.uid, usdt],
    );
    expect(chain.map((p) => `${p.amount}=${p.balance_after}`)).toEqual([
      '3=3',
      '-0.7=2.3',
      '-0.7=1.6',
      '-0.7=0.9',
      '-0.7=0.2',
      '0.1=0.3',
      '0.1=0.4',
    ]);
  });

  // Two connections: PGlite has one, so this runs on PostgreSQL only.
  it.skipIf(testDbKind === 'pglite')(
    'an item told not to wait answers BUSY at once for an account another transaction holds, and does nothing',
    async () => {
      const [holder, alice, bob, carol] = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
      for (const u of [alice!, bob!, carol!]) await fund(t, u.uid, 'USDT', '5');
      const [a, c] = [await tokenHash(alice!), await tokenHash(carol!)];
      const name = (await db.sql.query<{ name: string }>('select current_database() as name'))[0]!.name;
      const url = databaseUrl(process.env.TEST_DATABASE_URL!, name);
      const [other, waiter] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
      await Promise.all([other.connect(), waiter.connect()]);
      try {
        // Another transaction holds bob's account (as a batch beside this one would).
        await other.query('begin');
        await other.query(`select 1 from accounts where user_id = $1 and currency_id = $2 for update`, [bob!.uid, usdt]);
        const started = performance.now();
        const k = key();
        const rows = await batch(
          [
            { from: a, to: bob!.uid, amount: '1', key: k }, // bob is held: BUSY
            { from: c, to: holder!.uid, amount: '1' }, // free: lands
          ],
          [false, false],
        );
        expect(rows.map((r) => r.b_state)).toEqual(['BUSY', null]);
        expect(performance.now() - started).toBeLessThan(2000);
        // Nothing of the BUSY item was written: its key is still free, alice still has 5.
        expect(await available(alice!)).toBe('5');
        const entries = await db.sql.query('select 1 from journal_entries where user_id = $1 and idempotency_key = $2', [alice!.uid, k]);
        expect(entries).toEqual([]);
        // Told to wait, the same item waits for the holder (here: until the lock timeout).
        await waiter.query(`set lock_timeout = '200ms'`);
        await expect(waiter.query(BATCH_SQL, batchParams([{ from: a, to: bob!.uid, amount: '1', key: k }], [true]))).rejects.toMatchObject({
          code: '55P03',
        });
        await other.query('rollback');
        expect((await batch([{ from: a, to: bob!.uid, amount: '1', key: k }], [false]))[0]!.b_state).toBe(null);
        expect([await available(alice!), await available(bob!)]).toEqual(['4', '6']);
      } finally {
        await Promise.all([other.end(), waiter.end()]);
      }
    },
  );

  it('guards items before any balance: two-factor without a checked factor (STEPUP), a security hold (HOLD), a disabled account (AUTH)', async () => {
    const [guarded, held, off, to] = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    for (const u of [guarded!, held!, off!]) await fund(t, u.uid, 'USDT', '500');
    await db.sql.query("insert into user_totp (user_id, secret, enabled_at) values ($1, 'v1:x:y:z', now())", [guarded!.uid]);
    await db.sql.query("insert into security_holds (user_id, reason, ends_at) values ($1, 'new_device', now() + interval '1 day')", [
      held!.uid,
    ]);
    await db.sql.query('update users set disabled_at = now() where id = $1', [off!.uid]);
    const [g, h, o] = [await tokenHash(guarded!), await tokenHash(held!), await tokenHash(off!)];
    const [k1, k2] = [key(), key()];

    const rows = await batch([
      { from: g, to: to!.uid, amount: '1', key: k1 }, // 1 two-factor on, no factor: STEPUP, not kept under k1
      { from: g, to: to!.uid, amount: '2', stepped: true, key: k2 }, // 2 with a factor: clean
      { from: h, to: to!.uid, amount: '100' }, // 3 under a hold, at the hold-free amount: goes (judged on its own)
      { from: h, to: to!.uid, amount: '0.5' }, // 4 a little more: the sum since the hold began is over it: HOLD
      { from: o, to: to!.uid, amount: '1' }, // 5 disabled account: AUTH
    ]);
    expect(rows.map((r) => r.b_state)).toEqual(['STEPUP', null, null, 'HOLD', 'AUTH']);
    // A replay of a key that has its answer needs no factor (it moves nothing); the refused k1 is free.
    const again = await batch([
      { from: g, to: to!.uid, amount: '2', key: k2 },
      { from: g, to: to!.uid, amount: '1', stepped: true, key: k1 },
    ]);
    expect(again.map((r) => [r.b_state, r.t_replayed])).toEqual([
      [null, true],
      [null, false],
    ]);
    expect(await available(to!)).toBe('103');
    expect(await available(guarded!)).toBe('497');
    expect(await available(off!)).toBe('500');
  });

  it('looks the guards up by key: a batch reads a few rows of sessions, users, user_totp and security_holds, however many users there are', async () => {
    const [a, b] = await Promise.all([createUser(t), createUser(t)]);
    await fund(t, a.uid, 'USDT', '10');
    const own = await db.dedicated?.();
    const on = own ? async <R>(text: string, params?: unknown[]) => (await own.query(text, params)).rows as R[] : db.sql.query.bind(db.sql);
    try {
      // The plans are made here, on small tables without statistics (a fresh database).
      await on(BATCH_SQL, batchParams([{ from: await tokenHash(a), to: b.uid, amount: '1' }]));
      // Then 1,000 more users, each with a session, an authenticator and a hold.
      await db.sql.query(
        `with u as (insert into users (email, password_hash, nickname)
                    select 'guard-' || g || '-' || $1 || '@test.coffer', 'test-user-no-password', 'bulk'
                    from generate_series(1, 1000) g returning id),
              s as (insert into sessions (user_id, token_hash, expires_at)
                    select u.id, 'guard-' || u.id || '-' || $1, now() + interval '1 day' from u),
              f as (insert into user_totp (user_id, secret, enabled_at) select u.id, 'v1:x:y:z', now() from u)
         insert into security_holds (user_id, reason, ends_at) select u.id, 'new_device', now() + interval '1 day' from u`,
        [key()],
      );
      const tables = ['sessions', 'users', 'user_totp', 'security_holds'];
      const readsSoFar = async () =>
        Object.fromEntries(
          (
            await on<{ relname: string; n: number }>(
              'select relname, (seq_tup_read + idx_tup_fetch)::int as n from pg_stat_xact_user_tables where relname = any($1)',
              [tables],
            )
          ).map((r) => [r.relname, Number(r.n)]),
        );
      await on('begin');
      let n: Record<string, number>;
      try {
        const before = await readsSoFar();
        const rows = await on<Row>(
          BATCH_SQL,
          batchParams([
            { from: await tokenHash(a), to: b.uid, amount: '1' },
            { from: await tokenHash(a), to: b.uid, amount: '2' },
          ]),
        );
        expect(rows.map((r) => r.b_state)).toEqual([null, null]);
        const after = await readsSoFar();
        n = Object.fromEntries(tables.map((table) => [table, (after[table] ?? 0) - (before[table] ?? 0)]));
        await on('commit');
      } catch (e) {
        await on('rollback');
        throw e;
      }
      // Two items of one user: a handful of rows each (a plan that scans would read 1,000 or more).
      for (const table of tables) expect(n[table], table).toBeLessThan(10);
      expect(n.sessions).toBeGreaterThan(0);
    } finally {
      own?.release();
    }
  });
});
