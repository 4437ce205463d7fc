import { type CurrentUser, type Envelope, ErrorCode, type LoginData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client } from '../../test/users.ts';
import { waitFor } from '../../test/wait.ts';
import { logIn, pause, sendMailUrl, signUp } from '../auth/test-helpers.ts';
import { HEARTBEAT_MS } from './routes.ts';
import { MAX_STREAMS_PER_SESSION, MAX_STREAMS_PER_USER } from './streams.ts';

/** A stream closed by a sign-out must end well before the heartbeat would notice. */
const PROMPT_END_MS = 2000;

interface OpenStream {
  /** Resolves with the time the stream ended (ms since epoch). */
  ended: Promise<number>;
  isOpen: () => boolean;
  /** The text the server wrote, as read so far. */
  text: () => string;
  abort: () => void;
}

/** Opens GET /api/events and resolves once its first bytes arrived (the server holds it then). */
async function openStream(base: string, token: string, lang = 'zh-CN'): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/events`, { headers: { 'x-token': token, 'accept-language': lang }, signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  let text = '';
  let open = true;
  let opened = () => {};
  const first = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        opened();
      }
    } catch {
      // aborted by the test
    }
    open = false;
    opened();
    return Date.now();
  })();
  await first;
  return { ended, isOpen: () => open, text: () => text, abort: () => controller.abort() };
}

/** The code of the first mail to `email` after the first `before` mails (the reset mail is sent after the answer). */
function resetCode(t: TestApp, email: string, before: number): Promise<string> {
  return waitFor(
    () =>
      t.mailbox.mails
        .slice(before)
        .filter((m) => m.to === email)
        .map((m) => m.raw.match(/\b(\d{6})\b/)?.[1])
        .find(Boolean),
    `a reset code mailed to ${email}`,
  );
}

describe('event streams: caps and sign-out', () => {
  let t: TestApp;
  let base: string;
  const streams: OpenStream[] = [];
  const open = async (token: string, lang?: string) => {
    const s = await openStream(base, token, lang);
    streams.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of streams) s.abort();
    await t.close();
  });

  it('keeps at most MAX_STREAMS_PER_SESSION per session, closing the oldest with a 2011 envelope', async () => {
    const token = await signUp(t, 'cap-session@coffer.test', 'cap-session-pw', { lang: 'en-US' });
    const mine: OpenStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION + 3; i++) {
      mine.push(await open(token, 'en-US'));
      await waitFor(() => mine.filter((s) => s.isOpen()).length <= MAX_STREAMS_PER_SESSION, 'the oldest streams closed');
      expect(mine.filter((s) => s.isOpen()).length).toBeLessThanOrEqual(MAX_STREAMS_PER_SESSION);
    }
    // The newest stay, the oldest were closed, each told why in the envelope.
    expect(mine.map((s) => s.isOpen())).toEqual([...Array(3).fill(false), ...Array(MAX_STREAMS_PER_SESSION).fill(true)]);
    const closedText = mine[0]!.text();
    expect(closedText).toContain('event: closed');
    const data = closedText.split('\n').find((l) => l.startsWith('data: '))!;
    const envelope = JSON.parse(data.slice('data: '.length)) as Envelope<null>;
    expect(envelope).toMatchObject({ code: ErrorCode.TOO_MANY_STREAMS, data: null });
    expect(envelope.message).toMatch(/stream/i);
  });

  it('keeps at most MAX_STREAMS_PER_USER over all sessions; another user is served meanwhile', async () => {
    const email = 'cap-user@coffer.test';
    const password = 'cap-user-password';
    await signUp(t, email, password);
    const bob = await signUp(t, 'cap-bob@coffer.test', 'cap-bob-password');
    const bobStream = await open(bob);
    const mine: OpenStream[] = [];
    const total = MAX_STREAMS_PER_USER * 3;
    let token = '';
    for (let i = 0; i < total; i++) {
      // A fresh session every other stream: under the per-session cap, over the per-user one.
      if (i % 2 === 0) token = await logIn(t, email, password);
      mine.push(await open(token));
      await waitFor(() => mine.filter((s) => s.isOpen()).length <= MAX_STREAMS_PER_USER, 'the oldest streams closed');
      expect(mine.filter((s) => s.isOpen()).length).toBeLessThanOrEqual(MAX_STREAMS_PER_USER);
    }
    expect(mine.slice(-MAX_STREAMS_PER_USER).every((s) => s.isOpen())).toBe(true);
    expect(mine.slice(0, total - MAX_STREAMS_PER_USER).some((s) => s.isOpen())).toBe(false);
    // The other user's stream was not touched, and their requests are answered.
    expect(bobStream.isOpen()).toBe(true);
    const me = await client(t)<CurrentUser>('GET', '/api/getCurrentUser', { token: bob });
    expect(me.code).toBe(0);
  });

  it('ends the stream of a signed-out session at once', async () => {
    const token = await signUp(t, 'logout-stream@coffer.test', 'logout-stream-pw');
    const stream = await open(token);
    const started = Date.now();
    expect((await client(t)('POST', '/api/logout', { token })).code).toBe(0);
    const ended = await Promise.race([stream.ended, pause(HEARTBEAT_MS + 1000).then(() => Number.POSITIVE_INFINITY)]);
    expect(ended - started).toBeLessThan(PROMPT_END_MS);
  }, 20_000);

  it('ends every stream of the account at once on a password reset', async () => {
    const email = 'reset-stream@coffer.test';
    const first = await signUp(t, email, 'reset-stream-pw');
    const second = await logIn(t, email, 'reset-stream-pw');
    const a = await open(first);
    const b = await open(second);
    const api = client(t);
    const before = t.mailbox.mails.length;
    expect((await api('GET', sendMailUrl(email, 'reset'))).code).toBe(0);
    const code = await resetCode(t, email, before);
    const started = Date.now();
    const reset = await api<LoginData>('POST', '/api/resetPassword', { body: { email, code, password: 'reset-stream-new-pw' } });
    expect(reset.code).toBe(0);
    const timeout = pause(HEARTBEAT_MS + 1000).then(() => Number.POSITIVE_INFINITY);
    const ends = await Promise.all([Promise.race([a.ended, timeout]), Promise.race([b.ended, timeout])]);
    for (const ended of ends) expect(ended - started).toBeLessThan(PROMPT_END_MS);
  }, 20_000);
});
