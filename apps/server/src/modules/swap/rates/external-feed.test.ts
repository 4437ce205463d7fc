import http from 'node:http';
import type { SwapPair, SwapQuoteData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../db/client.ts';
import { createTestApp, createTestDatabase } from '../../../test/harness.ts';
import { client } from '../../../test/users.ts';
import { currencyId, makeUser } from '../test-support.ts';
import { ExternalFeedRateSource, FEED_CACHE_MS } from './external-feed.ts';

/** A fake price feed on 127.0.0.1: each path answers what the test put there. */
async function startFeed() {
  const routes = new Map<string, { status: number; body: string; delayMs?: number }>();
  const server = http.createServer((req, res) => {
    const route = routes.get(req.url ?? '');
    const answer = () => {
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(route.status, { 'content-type': 'application/json' }).end(route.body);
    };
    if (route?.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    set(path: string, body: unknown, status = 200, delayMs?: number) {
      routes.set(path, { status, body: typeof body === 'string' ? body : JSON.stringify(body), delayMs });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Feed = Awaited<ReturnType<typeof startFeed>>;
const prices = { USDT: '1', USDC: '0.9995', ETH: '3012.5', BTC: '61000' };
const fresh = (ageSeconds = 0, p: Record<string, string> = prices) => ({
  updatedAt: new Date(Date.now() - ageSeconds * 1000).toISOString(),
  prices: p,
});

describe('ExternalFeedRateSource', () => {
  let feed: Feed;
  let database: Database;
  let ETH: number;
  let USDT: number;
  beforeAll(async () => {
    feed = await startFeed();
    database = await createTestDatabase();
    ETH = await currencyId(database, 'ETH');
    USDT = await currencyId(database, 'USDT');
  });
  afterAll(async () => {
    await feed.close();
    await database.close();
  });

  const source = (path: string, extra: { timeoutMs?: number } = {}) =>
    new ExternalFeedRateSource(database, { url: feed.url(path), maxAgeSeconds: 30, cacheMs: 0, ...extra });

  it('prices pairs as price(from) / price(to), keeping the operator spread, fee and limits', async () => {
    feed.set('/ok', fresh(5));
    const pairs = await source('/ok').listPairs();
    expect(pairs).toHaveLength(12);
    const ethUsdt = pairs.find((p) => p.fromCode === 'ETH' && p.toCode === 'USDT')!;
    expect(ethUsdt).toMatchObject({ midRate: '3012.5', spreadBps: 30, feeBps: 10, minAmount: expect.any(String) });
    const usdtEth = await source('/ok').getPair(USDT, ETH);
    // 1 / 3012.5 truncated to 18 decimals
    expect(usdtEth!.midRate).toBe('0.000331950207468879');
    const usdcUsdt = pairs.find((p) => p.fromCode === 'USDC' && p.toCode === 'USDT')!;
    expect(usdcUsdt.midRate).toBe('0.9995');
  });

  it('leaves out a pair whose currency has no price', async () => {
    feed.set('/partial', fresh(0, { USDT: '1', ETH: '3000' }));
    const pairs = await source('/partial').listPairs();
    expect(pairs.map((p) => `${p.fromCode}>${p.toCode}`).sort()).toEqual(['ETH>USDT', 'USDT>ETH']);
  });

  it.each([
    ['stale', () => feed.set('/x', fresh(31))],
    ['HTTP 500', () => feed.set('/x', { error: 'down' }, 500)],
    ['not JSON', () => feed.set('/x', 'price: 3000')],
    ['number prices (floats are not money)', () => feed.set('/x', { updatedAt: new Date().toISOString(), prices: { ETH: 3000, USDT: 1 } })],
    ['a zero price', () => feed.set('/x', fresh(0, { ETH: '0', USDT: '1' }))],
    ['no timestamp', () => feed.set('/x', { prices })],
    ['too slow', () => feed.set('/x', fresh(0), 200, 500)],
  ])('makes every pair unavailable when the feed is %s', async (_name, arrange) => {
    arrange();
    const s = source('/x', { timeoutMs: 200 });
    expect(await s.listPairs()).toEqual([]);
    expect(await s.getPair(ETH, USDT)).toBeNull();
  });

  it('turns stale while cached: a cached document is never served past its age', async () => {
    let now = Date.now();
    feed.set('/aging', { updatedAt: new Date(now).toISOString(), prices });
    const s = new ExternalFeedRateSource(database, { url: feed.url('/aging'), maxAgeSeconds: 30, cacheMs: 60_000, now: () => now });
    expect(await s.getPair(ETH, USDT)).not.toBeNull();
    now += 31_000;
    expect(await s.getPair(ETH, USDT)).toBeNull();
  });

  it('refuses an unreachable feed', async () => {
    const s = new ExternalFeedRateSource(database, { url: 'http://127.0.0.1:1/prices', maxAgeSeconds: 30, cacheMs: 0 });
    expect(await s.listPairs()).toEqual([]);
  });
});

describe('swap API on an external feed (RATE_FEED_URL)', () => {
  it('serves feed prices and answers 3003 once the feed goes stale', async () => {
    // Only Date is faked (it keeps running with real time): the app's feed cache expires when
    // the test moves the clock, not after a real second of sleep.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const feed = await startFeed();
    feed.set('/prices', fresh(0));
    const t = await createTestApp({ RATE_FEED_URL: feed.url('/prices'), RATE_FEED_MAX_AGE_SECONDS: '10' });
    try {
      const call = client(t);
      const u = await makeUser(t.database);
      const ETH = await currencyId(t.database, 'ETH');
      const USDT = await currencyId(t.database, 'USDT');
      const rates = await call<{ list: SwapPair[] }>('GET', '/api/swap/rates');
      const ethUsdt = rates.data.list.find((p) => p.fromCurrency === 'ETH' && p.toCurrency === 'USDT')!;
      // 3012.5 × 0.997; fee ⌈3.0034625⌉₂ = 3.01; receive ⌊3003.4625⌋₂ − fee
      expect(ethUsdt.rate).toBe('3003.4625');
      const quote = await call<SwapQuoteData>('POST', '/api/swap/quote', {
        token: u.token,
        body: { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '1' },
      });
      expect(quote.data).toMatchObject({ rate: '3003.4625', toAmount: '3000.45', fee: '3.01' });

      feed.set('/prices', fresh(11));
      vi.setSystemTime(Date.now() + FEED_CACHE_MS + 100);
      expect((await call<{ list: SwapPair[] }>('GET', '/api/swap/rates')).data.list).toEqual([]);
      const stale = await call('POST', '/api/swap/quote', {
        token: u.token,
        body: { fromCurrencyId: ETH, toCurrencyId: USDT, amount: '1' },
      });
      expect(stale.code).toBe(3003);
    } finally {
      vi.useRealTimers();
      await t.close();
      await feed.close();
    }
  });

  it('refuses a RATE_FEED_URL that is not http(s)', async () => {
    await expect(createTestApp({ RATE_FEED_URL: 'ftp://x' })).rejects.toThrow(/RATE_FEED_URL/);
  });
});
