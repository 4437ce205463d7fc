import type { DepositAddress, Network } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';

interface SseEvent {
  id: string;
  event: string;
  data: { type: string; id: number; status: string };
}

/**
 * Reads server-sent events from a real HTTP stream until `until` holds or time runs out.
 * `opened` resolves at the stream's first bytes: the server subscribes before it writes them.
 */
function readEvents(url: string, headers: Record<string, string>, until: (events: SseEvent[]) => boolean, ms = 5000) {
  let markOpened = () => {};
  const opened = new Promise<void>((resolve) => {
    markOpened = resolve;
  });
  return Object.assign(
    read(url, headers, until, ms, () => markOpened()),
    { opened },
  );
}

async function read(url: string, headers: Record<string, string>, until: (events: SseEvent[]) => boolean, ms: number, onOpen: () => void) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const events: SseEvent[] = [];
  try {
    const res = await fetch(url, { headers, signal: controller.signal });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let buffer = '';
    while (!until(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      onOpen();
      buffer += new TextDecoder().decode(value);
      let cut = buffer.indexOf('\n\n');
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const field = (name: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(`${name}: `))
            ?.slice(name.length + 2);
        const data = field('data');
        if (data) events.push({ id: field('id')!, event: field('event')!, data: JSON.parse(data) });
        cut = buffer.indexOf('\n\n');
      }
    }
  } catch (e) {
    if ((e as Error).name !== 'AbortError') throw e;
  } finally {
    onOpen(); // a stream that never opened fails the assertions, not the test's timeout
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

describe('live events (SSE)', () => {
  let t: TestApp;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let eth: Network;

  beforeAll(async () => {
    t = await createTestApp({}, { chain: true });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    alice = await createUser(t);
    bob = await createUser(t);
    eth = (await client(t)<Network[]>('GET', '/api/currency/onchain')).data.find((n) => n.code === 'ETH')!;
    await t.chain.live!.tick();
  });
  afterAll(() => t.close());

  it('answers 2001 in the envelope without a session', async () => {
    const res = await fetch(`${base}/api/events`);
    expect(await res.json()).toMatchObject({ code: 2001, data: null });
  });

  it('pushes a deposit as it is seen and credited, to its owner only, and replays after Last-Event-ID', async () => {
    const call = client(t);
    const address = (
      await call<DepositAddress>('POST', '/api/deposit/createAddress', {
        token: alice.token,
        body: { currencyId: eth.currencyId, networkId: eth.id },
      })
    ).data.address;
    const aliceStream = readEvents(`${base}/api/events`, { 'x-token': alice.token }, (e) => e.some((x) => x.data.status === 'credited'));
    const bobStream = readEvents(`${base}/api/events`, { 'x-token': bob.token }, () => false, 2500);
    await Promise.all([aliceStream.opened, bobStream.opened]);
    await t.chain.live!.local!.faucet(address as `0x${string}`, 'ETH', 10n ** 18n);
    await t.chain.live!.tick();
    await t.chain.live!.local!.mine(2);
    await t.chain.live!.tick();
    const events = await aliceStream;
    expect(events.map((e) => `${e.data.type}:${e.data.status}`)).toEqual(expect.arrayContaining(['deposit:pending', 'deposit:credited']));
    expect(await bobStream).toEqual([]);

    // A client that saw only the first event gets the rest again.
    const first = events[0]!;
    const replay = await readEvents(`${base}/api/events`, { 'x-token': alice.token, 'last-event-id': first.id }, (e) =>
      e.some((x) => x.data.status === 'credited'),
    );
    expect(replay[0]!.id).not.toBe(first.id);
    expect(replay.some((e) => e.data.status === 'credited')).toBe(true);
  });
});
