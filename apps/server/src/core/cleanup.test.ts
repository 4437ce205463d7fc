import crypto from 'node:crypto';
import type { SwapQuoteData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/wait.ts';
import { client, createUser, fund, type TestUser } from '../test/users.ts';
import {
  AUTH_CHALLENGE_RETENTION_HOURS,
  CLEANUP_INTERVAL_MINUTES,
  cleanupExpired,
  EMAIL_CODE_RETENTION_HOURS,
  SESSION_RETENTION_DAYS,
  SIGN_IN_HISTORY_RETENTION_DAYS,
  SWAP_QUOTE_RETENTION_HOURS,
  startCleanup,
} from './cleanup.ts';
import { startPeriodic } from './periodic.ts';

const HOUR_S = 3600;
const silent = { info: () => {}, warn: () => {} };

describe('cleanup of expired rows', () => {
  let t: TestApp;
  let user: TestUser;
  let USDT: number;
  let ETH: number;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);
  /** `seconds` ago (negative: in the future), as a timestamp. */
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    [{ id: USDT }, { id: ETH }] = (await q<{ id: number }>(
      `select id from currencies where code in ('USDT', 'ETH') order by case code when 'USDT' then 0 else 1 end`,
    )) as [{ id: number }, { id: number }];
  });
  afterAll(() => t.close());

  async function quoteExpiring(expiresAt: string): Promise<number> {
    const [row] = await q<{ id: number }>(
      `insert into swap_quotes (user_id, from_currency_id, to_currency_id, from_amount, to_amount, rate, mid_rate,
         spread_bps, fee_bps, fee, fee_currency_id, created_at, expires_at)
       values ($1, $2, $3, 10, 0.003, 0.0003, 0.0003, 0, 0, 0, $3, $4::timestamptz - interval '15 seconds', $4)
       returning id`,
      [user.uid, USDT, ETH, expiresAt],
    );
    return row!.id;
  }

  async function session(expiresAt: string, revokedAt: string | null = null): Promise<number> {
    const [row] = await q<{ id: number }>(
      `insert into sessions (user_id, token_hash, expires_at, revoked_at) values ($1, $2, $3, $4) returning id`,
      [user.uid, crypto.randomBytes(16).toString('hex'), expiresAt, revokedAt],
    );
    return row!.id;
  }

  async function emailCode(expiresAt: string, consumedAt: string | null = null): Promise<number> {
    const [row] = await q<{ id: number }>(
      `insert into email_codes (email, purpose, code_hash, expires_at, consumed_at) values ($1, 'reset', 'x:y', $2, $3) returning id`,
      [`c-${crypto.randomBytes(5).toString('hex')}@test.coffer`, expiresAt, consumedAt],
    );
    return row!.id;
  }

  const ids = async (table: string, wanted: number[]) =>
    (await q<{ id: number }>(`select id from ${table} where id = any($1::bigint[]) order by id`, [wanted])).map((r) => Number(r.id));

  it('names its retentions and interval with their units', () => {
    expect(SWAP_QUOTE_RETENTION_HOURS).toBeGreaterThan(0);
    expect(EMAIL_CODE_RETENTION_HOURS).toBeGreaterThan(0);
    expect(SESSION_RETENTION_DAYS).toBeGreaterThan(0);
    expect(CLEANUP_INTERVAL_MINUTES).toBeGreaterThan(0);
  });

  it('deletes quotes, codes and sessions past their retention and keeps live and recent ones', async () => {
    const quoteRetention = SWAP_QUOTE_RETENTION_HOURS * HOUR_S;
    // A quote that was used: its swap refers to it, so it stays however old it is.
    await fund(t, user.uid, 'USDT', '100');
    const call = client(t);
    const body = { fromCurrencyId: USDT, toCurrencyId: ETH, amount: '10' };
    const quoted = await call<SwapQuoteData>('POST', '/api/swap/quote', { token: user.token, body });
    const used = quoted.data.quoteId;
    const swap = await call('POST', '/api/swap/apply', { token: user.token, key: crypto.randomUUID(), body: { ...body, quoteId: used } });
    expect(swap.code).toBe(0);
    await q(`update swap_quotes set expires_at = $2 where id = $1`, [used, ago(quoteRetention * 10)]);

    const oldQuotes = [await quoteExpiring(ago(quoteRetention + HOUR_S)), await quoteExpiring(ago(quoteRetention * 3))];
    const keptQuotes = [used, await quoteExpiring(ago(quoteRetention - 600)), await quoteExpiring(ago(-15))];

    const codeRetention = EMAIL_CODE_RETENTION_HOURS * HOUR_S;
    const oldCodes = [
      await emailCode(ago(codeRetention + HOUR_S)),
      // Used long ago (consumed codes are dead even before they expire).
      await emailCode(ago(-600), ago(codeRetention + HOUR_S)),
    ];
    const keptCodes = [await emailCode(ago(-600)), await emailCode(ago(codeRetention - HOUR_S)), await emailCode(ago(-600), ago(60))];

    const sessionRetention = SESSION_RETENTION_DAYS * 24 * HOUR_S;
    const oldSessions = [
      await session(ago(sessionRetention + HOUR_S)),
      // Signed out long ago, though it would not have expired yet.
      await session(ago(-HOUR_S), ago(sessionRetention + HOUR_S)),
    ];
    const keptSessions = [
      await session(ago(-HOUR_S)),
      await session(ago(sessionRetention - HOUR_S)),
      await session(ago(-HOUR_S), ago(HOUR_S)),
    ];

    const removed = await cleanupExpired(t.database);
    expect(removed).toEqual({ swapQuotes: 2, emailCodes: 2, sessions: 2, signIns: 0, authChallenges: 0 });
    expect(await ids('swap_quotes', [...oldQuotes, ...keptQuotes])).toEqual([...keptQuotes].sort((a, b) => a - b));
    expect(await ids('email_codes', [...oldCodes, ...keptCodes])).toEqual(keptCodes);
    expect(await ids('sessions', [...oldSessions, ...keptSessions])).toEqual(keptSessions);
    // The user's own session (made by createUser) still signs in.
    expect((await call('GET', '/api/getCurrentUser', { token: user.token })).code).toBe(0);

    // Nothing left to do: a second run deletes nothing.
    expect(await cleanupExpired(t.database)).toEqual({ swapQuotes: 0, emailCodes: 0, sessions: 0, signIns: 0, authChallenges: 0 });
  });

  it('deletes sign-in history past SIGN_IN_HISTORY_RETENTION_DAYS and keeps the rest', async () => {
    const retention = SIGN_IN_HISTORY_RETENTION_DAYS * 24 * HOUR_S;
    const attempt = async (createdAt: string) =>
      Number(
        (
          await q<{ id: number }>(
            `insert into sign_in_attempts (user_id, success, kind, ip, created_at) values ($1, true, 'success', '127.0.0.1', $2) returning id`,
            [user.uid, createdAt],
          )
        )[0]!.id,
      );
    const old = await attempt(ago(retention + HOUR_S));
    const kept = [await attempt(ago(retention - HOUR_S)), await attempt(ago(60))];
    expect(await cleanupExpired(t.database)).toMatchObject({ signIns: 1 });
    expect(await ids('sign_in_attempts', [old, ...kept])).toEqual(kept);
  });

  it('deletes sign-in and passkey challenges AUTH_CHALLENGE_RETENTION_HOURS after they expired', async () => {
    const challenge = async (expiresAt: string) =>
      Number(
        (
          await q<{ id: number }>(
            `insert into auth_challenges (token_hash, purpose, expires_at) values (md5(random()::text), 'passkey_login', $1) returning id`,
            [expiresAt],
          )
        )[0]!.id,
      );
    const old = await challenge(ago(AUTH_CHALLENGE_RETENTION_HOURS * HOUR_S + 60));
    const kept = [await challenge(ago(60)), await challenge(new Date(Date.now() + 300_000).toISOString())];
    expect(await cleanupExpired(t.database)).toMatchObject({ authChallenges: 1 });
    expect(await ids('auth_challenges', [old, ...kept])).toEqual(kept);
  });

  it('deletes in batches until nothing old is left', async () => {
    const old = ago(SWAP_QUOTE_RETENTION_HOURS * HOUR_S * 2);
    const many = [];
    for (let i = 0; i < 7; i++) many.push(await quoteExpiring(old));
    expect(await cleanupExpired(t.database, { batchSize: 3 })).toMatchObject({ swapQuotes: 7 });
    expect(await ids('swap_quotes', many)).toEqual([]);
  });

  it('measures retentions from its clock: a row goes the moment the clock passes its retention', async () => {
    // A fixed instant, then the clock moved past the retention (no waiting it out).
    const expiry = Date.parse('2026-01-01T00:00:00Z');
    const code = await emailCode(new Date(expiry).toISOString());
    const retentionMs = EMAIL_CODE_RETENTION_HOURS * HOUR_S * 1000;
    expect(await cleanupExpired(t.database, { clock: () => expiry + retentionMs })).toMatchObject({ emailCodes: 0 });
    expect(await ids('email_codes', [code])).toEqual([code]);
    expect(await cleanupExpired(t.database, { clock: () => expiry + retentionMs + 1 })).toMatchObject({ emailCodes: 1 });
    expect(await ids('email_codes', [code])).toEqual([]);
  });

  it('runs on its interval until stopped', async () => {
    let runs = 0;
    const counted = () => {
      runs++;
      return Date.now();
    };
    const job = startCleanup({ database: t.database, log: silent, intervalMs: 50, clock: counted });
    const first = await emailCode(ago(EMAIL_CODE_RETENTION_HOURS * HOUR_S * 2));
    await waitFor(async () => (await ids('email_codes', [first])).length === 0, 'the first expired code deleted');
    await job.stop();
    const runsWhenStopped = runs;
    const second = await emailCode(ago(EMAIL_CODE_RETENTION_HOURS * HOUR_S * 2));
    // A witness on the same interval runs three times: had the stopped job's timer survived, it would have run by then.
    let witnessed = 0;
    const witness = startPeriodic({ intervalMs: 50, log: silent, failure: 'witness failed', run: async () => void witnessed++ });
    await waitFor(() => witnessed >= 3, 'three runs of the witness');
    await witness.stop();
    expect(runs).toBe(runsWhenStopped);
    expect(await ids('email_codes', [second])).toEqual([second]);
  });
});
