import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../test/users.ts';
import { sanitizeMessage } from './log.ts';
import { hashToken } from './session.ts';

/**
 * The log of a failing request must say what failed (error name, SQLSTATE, message) but never
 * the statement's parameters: driver errors carry them (PGlite: `params`; drizzle: "params:"
 * in the message), and they hold password hashes, other users' session-token hashes, e-mails.
 */
describe('error log', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let alice: TestUser;
  let bob: TestUser;
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' }, { logStream: stream });
    call = client(t);
    alice = await createUser(t, { email: 'alice-secret-address@log.test' });
    bob = await createUser(t, { email: 'bob-secret-address@log.test' });
    await fund(t, alice.uid, 'USDT', '10');
    await fund(t, bob.uid, 'USDT', '10');
  });
  afterAll(() => t?.close());

  const errorLines = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'unhandled error');
  const raw = (token: string) => token.replace(/^Bearer /, '');

  it('logs a forced database failure without parameters, hashes, tokens or addresses', async () => {
    const password = 'Password-Secret-4711';
    const nickname = 'NickSecret42';
    const newcomer = 'newcomer-secret@log.test';
    expect((await call('GET', `/api/sendMail?email=${encodeURIComponent(newcomer)}&type=register`)).code).toBe(0);
    const code = await t.mailbox.lastCode(newcomer);

    // Force failures: inserting a user raises; the sessions table is gone for a moment.
    await t.database.sql.query(`create function coffer_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'forced failure'; end $$`);
    await t.database.sql.query('create trigger coffer_test_fail before insert on users for each row execute function coffer_test_fail()');
    const registered = await call('POST', '/api/register', { body: { email: newcomer, password, code, nickname } });
    await t.database.sql.query('drop trigger coffer_test_fail on users');
    await t.database.sql.query('alter table sessions rename to sessions_gone');
    let answers: { status: number; code: number }[];
    try {
      answers = await Promise.all([
        call('GET', '/api/getCurrentUser', { token: alice.token }),
        call('POST', '/api/transfer/transferByUID', {
          token: alice.token,
          body: { uid: bob.uid, currencyId: 1, amount: '1', memo: 'memo-secret-a' },
        }),
        call('POST', '/api/transfer/transferByUID', {
          token: bob.token,
          body: { uid: alice.uid, currencyId: 1, amount: '1', memo: 'memo-secret-b' },
        }),
      ]);
    } finally {
      await t.database.sql.query('alter table sessions_gone rename to sessions');
    }
    expect([registered, ...answers].map((a) => [a.status, a.code])).toEqual(Array(4).fill([500, 5000]));

    const secrets = [
      password,
      nickname,
      newcomer,
      code,
      '$argon2',
      alice.email,
      bob.email,
      raw(alice.token),
      raw(bob.token),
      hashToken(raw(alice.token)),
      hashToken(raw(bob.token)),
      'memo-secret-a',
      'memo-secret-b',
      'params',
    ];
    const leaks = lines.flatMap((line) => secrets.filter((secret) => line.includes(secret)));
    expect(leaks, 'secrets found in the log').toEqual([]);

    const errors = errorLines();
    expect(errors.length).toBe(4);
    // Still useful: the error's name, SQLSTATE and message are there.
    const logged = errors.map((e) => e.error as { type: string; code?: string; message: string; stack?: string });
    expect(logged.map((e) => e.code).sort()).toEqual(['42P01', '42P01', '42P01', 'P0001']);
    const forced = logged.find((e) => e.code === 'P0001')!;
    expect(forced).toMatchObject({ type: 'DrizzleQueryError', cause: { message: 'forced failure', code: 'P0001' } });
    expect(forced.message).toMatch(/^Failed query: insert into "users"/);
    expect(forced.stack).toContain('service.ts');
    expect(logged.filter((e) => e.message === 'relation "sessions" does not exist')).toHaveLength(2);
  });

  it('cuts parameters and masks values and opaque runs in messages', () => {
    expect(sanitizeMessage('Failed query: select * from users where id = $1\nparams: 7,secret@mail.test')).toBe(
      'Failed query: select * from users where id = $1',
    );
    expect(sanitizeMessage('invalid input syntax for type integer: "abc-SECRET"')).toBe(
      'invalid input syntax for type integer: "[redacted]"',
    );
    const argon = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2g';
    expect(sanitizeMessage(`value ${argon} too long`)).not.toContain('aGFzaGhhc2hoYXNo');
    expect(sanitizeMessage(`key ${'ab12'.repeat(16)} reused`)).toBe('key [redacted] reused');
    expect(sanitizeMessage('relation "sessions" does not exist')).toBe('relation "sessions" does not exist');
    expect(sanitizeMessage('duplicate key value violates unique constraint "journal_entries_user_id_idempotency_key_unique"')).toContain(
      'journal_entries_user_id_idempotency_key_unique',
    );
  });

  it('redacts credentials in logged request headers', () => {
    const headers = { 'x-token': 'Bearer header-secret-1', authorization: 'Basic header-secret-2', cookie: 'sid=header-secret-3' };
    t.app.log.info({ req: { headers }, headers }, 'probe');
    const probe = lines.find((l) => l.includes('"probe"'));
    expect(probe).toBeDefined();
    expect(probe).not.toMatch(/header-secret/);
  });
});
