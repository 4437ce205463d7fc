import type { Balance, SwapApplyData, TransferResult } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../test/users.ts';
import { auditLedger } from './audit.ts';

/**
 * Jepsen-style bank test over the API: 64 concurrent clients send random transfers among a
 * few users and swaps through the (hot) house account, with idempotent replays, concurrent
 * twins and reused keys. Afterwards the audit must pass and every balance must equal what
 * was acknowledged (code 0) to the clients: nothing lost, created or applied twice.
 * The run is seeded (LEDGER_SEED=n to replay one).
 */
const CLIENTS = 64;
const OPS_PER_CLIENT = 10;
const SEED = Number(process.env.LEDGER_SEED ?? Date.now() % 1_000_000);

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Exact minor units at 18 decimals (the ledger's scale) of a decimal string. */
function units(v: string): bigint {
  const neg = v.startsWith('-');
  const [int = '0', frac = ''] = (neg ? v.slice(1) : v).split('.');
  const u = BigInt(int + frac.padEnd(18, '0').slice(0, 18));
  return neg ? -u : u;
}

interface Request {
  kind: 'transfer' | 'swap';
  user: number;
  url: string;
  body: Record<string, unknown>;
  key: string;
}

describe(`ledger under ${CLIENTS} concurrent clients (seed ${SEED})`, () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const users: TestUser[] = [];
  const cur: Record<string, number> = {};
  /** Expected balance per `${uid}:${currencyId}` in minor units. */
  const expected = new Map<string, bigint>();
  const add = (uid: number, currencyId: number, amount: string, sign: 1n | -1n) => {
    const k = `${uid}:${currencyId}`;
    expected.set(k, (expected.get(k) ?? 0n) + sign * units(amount));
  };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    const list = await call<{ id: number; code: string }[]>('GET', '/api/currency/list');
    for (const c of list.data) cur[c.code] = c.id;
    for (let i = 0; i < 5; i++) {
      const u = await createUser(t, { email: `bank${i}@concurrency.test` });
      users.push(u);
      for (const [code, amount] of [
        ['USDT', '1000'],
        ['USDC', '1000'],
        ['BTC', '0.5'],
      ] as const) {
        await fund(t, u.uid, code, amount);
        add(u.uid, cur[code]!, amount, 1n);
      }
    }
  });
  afterAll(() => t.close());

  it('never loses, creates or double-applies money', async () => {
    const rnd = prng(SEED);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const decimal = (maxInt: number, decimals: number) => {
      const int = Math.floor(rnd() * maxInt);
      const frac = Array.from({ length: decimals }, () => Math.floor(rnd() * 10)).join('');
      return `${int}.${frac}`.replace(/\.?0+$/, '') || '1';
    };

    const transfers = new Map<number, { from: number; to: number; currencyId: number; amount: string }>();
    const swaps = new Map<number, SwapApplyData & { uid: number }>();
    /** Successful requests by key, to check replays against. */
    const done = new Map<string, { id: number; amount: string }>();
    const early = new Map<string, number>();
    /**
     * The first final answer of each key to the request first sent with it (0 or a refusal):
     * the key's answer forever, refusals included (decision 012). Twins and replays of that
     * request must hear it again; another request under the key hears 3010.
     */
    const answers = new Map<string, { code: number; request: string }>();
    const stats = { ok: 0, replayed: 0, insufficient: 0, reused: 0, houseLimit: 0, refusalReplayed: 0 };
    let keySeq = 0;

    const newRequest = (sender?: number): Request => {
      const from = users.find((u) => u.uid === sender) ?? pick(users);
      const key = `bank-${SEED}-${++keySeq}`;
      if (rnd() < 0.25) {
        const [a, b] = rnd() < 0.5 ? ['USDT', 'USDC'] : ['USDC', 'USDT'];
        return {
          kind: 'swap',
          user: from.uid,
          url: '/api/swap/apply',
          body: { fromCurrencyId: cur[a!], toCurrencyId: cur[b!], amount: String(1 + Math.floor(rnd() * 150)) },
          key,
        };
      }
      const to = pick(users.filter((u) => u !== from));
      const code = pick(['USDT', 'USDC', 'BTC'] as const);
      const amount = code === 'BTC' ? decimal(1, 8).replace(/^0$/, '0.001') : decimal(300, 6);
      const byEmail = rnd() < 0.5;
      return {
        kind: 'transfer',
        user: from.uid,
        url: byEmail ? '/api/transfer/transferByEmail' : '/api/transfer/transferByUID',
        body: { ...(byEmail ? { email: to.email } : { uid: to.uid }), currencyId: cur[code], amount },
        key,
      };
    };

    const send = async (req: Request) => {
      const token = users.find((u) => u.uid === req.user)!.token;
      const res = await call<TransferResult | SwapApplyData>('POST', req.url, { token, body: req.body, key: req.key });
      const before = done.get(req.key);
      const request = JSON.stringify([req.url, req.body]);
      const first = answers.get(req.key);
      if (!first) answers.set(req.key, { code: res.code, request });
      else if (first.request !== request) expect(res.code, `another request under ${req.key}`).toBe(3010);
      else {
        expect(res.code, `the answer of ${req.key} changed`).toBe(first.code);
        if (res.code !== 0) stats.refusalReplayed++;
      }
      if (res.code === 0) {
        stats.ok++;
        if (res.data.replayed) {
          stats.replayed++;
          // A replay answers the operation acknowledged for its key, nothing new. A twin's
          // replay may reach the client before the original's answer does.
          const known = before?.id ?? early.get(req.key);
          if (known === undefined) early.set(req.key, res.data.id);
          else expect(known, `replay of ${req.key}`).toBe(res.data.id);
        } else if (req.kind === 'transfer') {
          const d = res.data as TransferResult;
          expect(transfers.has(d.id), `transfer ${d.id} acknowledged twice as new`).toBe(false);
          if (early.has(req.key)) expect(early.get(req.key)).toBe(d.id);
          transfers.set(d.id, { from: req.user, to: d.counterparty.uid, currencyId: d.currencyId, amount: d.amount });
          add(req.user, d.currencyId, d.amount, -1n);
          add(d.counterparty.uid, d.currencyId, d.amount, 1n);
          done.set(req.key, { id: d.id, amount: d.amount });
        } else {
          const d = res.data as SwapApplyData;
          expect(swaps.has(d.id), `swap ${d.id} acknowledged twice as new`).toBe(false);
          if (early.has(req.key)) expect(early.get(req.key)).toBe(d.id);
          swaps.set(d.id, { ...d, uid: req.user });
          add(req.user, d.fromCurrencyId, d.fromAmount, -1n);
          add(req.user, d.toCurrencyId, d.toAmount, 1n);
          done.set(req.key, { id: d.id, amount: d.fromAmount });
        }
      } else if (res.code === 3001) {
        stats.insufficient++;
      } else if (res.code === 3010) {
        stats.reused++;
        expect(first, `3010 for an unused key ${req.key}`).toBeDefined();
      } else if (res.code === 3011) {
        stats.houseLimit++;
      } else {
        throw new Error(`unexpected answer ${res.code} ${res.message} to ${JSON.stringify(req)}`);
      }
    };

    const worker = async () => {
      const mine: Request[] = [];
      for (let i = 0; i < OPS_PER_CLIENT; i++) {
        const roll = rnd();
        if (mine.length > 0 && roll < 0.15) {
          await send(pick(mine)); // replay: same key, same body
        } else if (mine.length > 0 && roll < 0.2) {
          const old = pick(mine);
          // Same key, another body (3010 once the key has succeeded).
          await send({ ...newRequest(old.user), key: old.key });
        } else if (roll < 0.27) {
          const req = newRequest();
          mine.push(req);
          await Promise.all([send(req), send(req)]); // concurrent twins
        } else {
          const req = newRequest();
          mine.push(req);
          await send(req);
        }
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, worker));
    const elapsed = Date.now() - started;

    const report = await auditLedger(t.database);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);

    // Every acknowledged operation is present exactly once, and nothing else is.
    const [{ n: transferRows }] = (await t.database.sql.query<{ n: number }>('select count(*) as n from transfers')) as [{ n: number }];
    const [{ n: swapRows }] = (await t.database.sql.query<{ n: number }>('select count(*) as n from swaps')) as [{ n: number }];
    expect(Number(transferRows)).toBe(transfers.size);
    expect(Number(swapRows)).toBe(swaps.size);

    for (const u of users) {
      const res = await call<Balance[]>('GET', '/api/currency/balances', { token: u.token });
      for (const b of res.data) {
        expect(units(b.available), `${u.email} ${b.code}`).toBe(expected.get(`${u.uid}:${b.currencyId}`) ?? 0n);
      }
    }
    expect(transfers.size).toBeGreaterThan(100);
    expect(swaps.size).toBeGreaterThan(20);
    expect(stats.replayed).toBeGreaterThan(0);
    // Refused keys stay refused: nothing but the audit above and the balances may tell them
    // from the rest, and the audit checks that refused entries moved nothing.
    const [{ n: refusedRows }] = (await t.database.sql.query<{ n: number }>(
      'select count(*)::int as n from journal_entries where refusal is not null',
    )) as [{ n: number }];
    const refusedKeys = [...answers.values()].filter((a) => a.code !== 0).length;
    expect(Number(refusedRows)).toBe(refusedKeys);
    console.info(
      `ledger concurrency (${t.database.kind}, seed ${SEED}): ${transfers.size} transfers, ${swaps.size} swaps in ${elapsed} ms; ` +
        `replayed ${stats.replayed}, 3001 ${stats.insufficient}, 3010 ${stats.reused}, 3011 ${stats.houseLimit}, ` +
        `refusals replayed ${stats.refusalReplayed}`,
    );
  });
});
