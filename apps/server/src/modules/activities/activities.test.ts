import type {
  ActivityAdmin,
  ActivityAdminList,
  ActivityDetails,
  ActivityFundResult,
  ActivityList,
  ActivityRanking,
  ActivityUserRank,
  AuditReport,
} from '@coffer/contract';
import DecimalJs from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inTransaction } from '../../db/transaction.ts';
import { auditLedger } from '../../ledger/audit.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, fund, type TestUser } from '../../test/users.ts';
import { maskEmailFully, maskNickname, rankName } from './mask.ts';
import { payoutTick } from './payout.ts';
import { nextPrizeRank } from './public.ts';
import { RANKING_CACHE_MS } from './ranking-cache.ts';
import { activityBody, createActivity, createdAt } from './test-support.ts';

const Decimal = DecimalJs.clone({ precision: 120 });
const hour = 3600_000;

describe('activities API', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let operator: TestUser;
  let user: TestUser;
  let USDT: number;
  let ETH: number;
  let BTC: number;
  let keyN = 0;
  const key = () => `activity-test-${++keyN}-${Date.now()}`;
  const q = <T = Record<string, unknown>>(text: string, params?: unknown[]) => t.database.sql.query<T>(text, params);

  const swap = async (u: TestUser, from: number, to: number, amount: string) => {
    const res = await call<{ entryId: number }>('POST', '/api/swap/apply', {
      token: u.token,
      key: key(),
      body: { fromCurrencyId: from, toCurrencyId: to, amount },
    });
    if (res.code !== 0) throw new Error(`swap: ${res.code} ${res.message}`);
    return res.data.entryId;
  };
  const newUser = async (opts: { nickname?: string; email?: string } = {}) => {
    const u = await createUser(t, opts);
    await fund(t, u.uid, 'USDT', '100000');
    await fund(t, u.uid, 'ETH', '100');
    return u;
  };
  const ranking = async (id: number, limit?: number) =>
    (await call<ActivityRanking>('GET', `/api/activity/getAllRank?id=${id}${limit ? `&limit=${limit}` : ''}`)).data;

  beforeAll(async () => {
    t = await createTestApp();
    call = client(t);
    operator = await createUser(t, { email: 'ops@coffer.test', role: 'operator' });
    user = await createUser(t, { email: 'someone@coffer.test' });
    const ids = await q<{ id: number; code: string }>('select id, code from currencies');
    const idOf = (c: string) => Number(ids.find((r) => r.code === c)!.id);
    [USDT, ETH, BTC] = [idOf('USDT'), idOf('ETH'), idOf('BTC')];
  });
  afterAll(() => t.close());

  describe('role checks and unknown ids', () => {
    it('admin routes: 2001 signed out, HTTP 403 for non-operators', async () => {
      const body = activityBody();
      const routes: [string, 'GET' | 'POST', unknown][] = [
        ['/api/admin/activities/create', 'POST', body],
        ['/api/admin/activities/update', 'POST', { id: 1, titleEn: 'x' }],
        ['/api/admin/activities/fund', 'POST', { id: 1, amount: '1', reason: 'x' }],
        ['/api/admin/activities/list', 'GET', undefined],
        ['/api/admin/activities/payouts?id=1', 'GET', undefined],
      ];
      for (const [url, method, b] of routes) {
        expect((await call(method, url, { body: b })).code, url).toBe(2001);
        expect(await call(method, url, { body: b, token: user.token }), url).toMatchObject({ status: 403, code: 4003 });
      }
      expect((await call('GET', '/api/activity/getUserRank?id=1')).code).toBe(2001);
    });

    it('unknown activity ids answer 4004 everywhere, malformed ids 1001', async () => {
      expect((await call('GET', '/api/activity/getAllRank?id=999999')).code).toBe(4004);
      expect((await call('GET', '/api/activity/getUserRank?id=999999', { token: user.token })).code).toBe(4004);
      expect((await call('POST', '/api/activity/details', { body: { id: 999999 } })).code).toBe(4004);
      const asOp = { token: operator.token };
      expect((await call('POST', '/api/admin/activities/update', { ...asOp, body: { id: 999999, titleEn: 'x' } })).code).toBe(4004);
      expect((await call('POST', '/api/admin/activities/fund', { ...asOp, body: { id: 999999, amount: '1', reason: 'x' } })).code).toBe(
        4004,
      );
      expect((await call('GET', '/api/admin/activities/payouts?id=999999', asOp)).code).toBe(4004);
      expect((await call('GET', '/api/activity/getAllRank?id=abc')).code).toBe(1001);
      expect((await call('GET', '/api/activity/getAllRank?id=1&limit=101')).code).toBe(1001);
      expect((await call('GET', '/api/activity/getAllRank?id=1&limit=0')).code).toBe(1001);
      expect((await call('POST', '/api/activity/details', { body: { id: '1' } })).code).toBe(1001);
    });
  });

  describe('admin create and update', () => {
    it('creates an activity, audited, with its prize table and no funding', async () => {
      const a = await createActivity(t, operator, { reason: 'launch' });
      expect(a).toMatchObject({
        titleEn: 'Swap race',
        metric: 'swap_volume_usdt',
        metricCurrency: null,
        prizeCurrency: 'USDT',
        prizes: [
          { rankFrom: 1, rankTo: 1, amount: '100' },
          { rankFrom: 2, rankTo: 3, amount: '10' },
        ],
        prizeTotal: '120',
        funded: '0',
        status: 'live',
      });
      const [audit] = await q<{ action: string; actor: string; reason: string }>(
        `select action, actor, reason from operator_actions where target_type = 'activity' and target_id = $1`,
        [String(a.id)],
      );
      expect(audit).toEqual({ action: 'activity.create', actor: 'ops@coffer.test', reason: 'launch' });
    });

    it('refuses bad input and leaves nothing written', async () => {
      const before = await q<{ n: number }>('select count(*) as n from activities');
      const bad = async (over: Record<string, unknown>) =>
        (await call('POST', '/api/admin/activities/create', { token: operator.token, body: { ...activityBody(), ...over } })).code;
      const now = Date.now();
      expect(await bad({ endsAt: new Date(now - 2 * hour).toISOString() })).toBe(1001);
      expect(await bad({ startsAt: 'yesterday' })).toBe(1001);
      expect(await bad({ metric: 'logins' })).toBe(1001);
      expect(await bad({ metric: 'transfers_sent' })).toBe(1001);
      expect(await bad({ metric: 'transfers_sent', metricCurrency: 'USDT' })).toBe(1001);
      expect(await bad({ metricCurrency: 'USDT' })).toBe(1001);
      expect(await bad({ titleEn: 'a\u202eb' })).toBe(1001);
      expect(await bad({ titleZh: '' })).toBe(1001);
      expect(await bad({ prizes: [] })).toBe(1001);
      expect(
        await bad({
          prizes: [
            { rankFrom: 1, rankTo: 3, amount: '1' },
            { rankFrom: 3, rankTo: 4, amount: '1' },
          ],
        }),
      ).toBe(1001);
      expect(await bad({ prizes: [{ rankFrom: 2, rankTo: 1, amount: '1' }] })).toBe(1001);
      expect(await bad({ prizes: [{ rankFrom: 1, rankTo: 1, amount: '0' }] })).toBe(1001);
      expect(await bad({ prizes: [{ rankFrom: 1, rankTo: 1, amount: '1.0000001' }] })).toBe(3002);
      expect(await bad({ prizeCurrency: 'DOGE' })).toBe(3003);
      expect(await bad({ minScore: '-1' })).toBe(1001);
      expect(await q<{ n: number }>('select count(*) as n from activities')).toEqual(before);
    });

    it('before the start everything may change; after it only titles and rules (6020)', async () => {
      const a = await createActivity(t, operator, {
        startsAt: new Date(Date.now() + hour).toISOString(),
        endsAt: new Date(Date.now() + 2 * hour).toISOString(),
      });
      expect(a.status).toBe('upcoming');
      const update = (body: Record<string, unknown>) =>
        call<ActivityAdmin>('POST', '/api/admin/activities/update', { token: operator.token, body: { id: a.id, ...body } });
      const changed = await update({ metric: 'transfers_sent', metricCurrency: 'USDT', minTransfer: '1', reason: 'switch' });
      expect(changed.data).toMatchObject({ metric: 'transfers_sent', metricCurrency: 'USDT', minTransfer: '1' });
      const back = await update({ metric: 'swap_volume_usdt' });
      expect(back.data).toMatchObject({ metric: 'swap_volume_usdt', metricCurrency: null, minTransfer: null });
      expect((await update({ metricCurrency: 'USDT' })).code).toBe(1001);
      const started = await createActivity(t, operator);
      const later = (body: Record<string, unknown>) =>
        call<ActivityAdmin>('POST', '/api/admin/activities/update', { token: operator.token, body: { id: started.id, ...body } });
      expect((await later({ metric: 'transfers_sent', metricCurrency: 'USDT', minTransfer: '1' })).code).toBe(6020);
      expect((await later({ endsAt: new Date(Date.now() + 5 * hour).toISOString() })).code).toBe(6020);
      expect((await later({ prizes: [{ rankFrom: 1, rankTo: 1, amount: '1' }] })).code).toBe(6020);
      // The same values again are no change.
      expect((await later({ startsAt: started.startsAt, prizes: started.prizes, titleEn: 'Renamed' })).data.titleEn).toBe('Renamed');
      const actions = await q<{ action: string }>(
        `select action from operator_actions where target_type = 'activity' and target_id = $1 order by id`,
        [String(started.id)],
      );
      expect(actions.map((r) => r.action)).toEqual(['activity.create', 'activity.update']);
      // The prize currency cannot change once funded, even before the start.
      await call('POST', '/api/admin/activities/fund', { token: operator.token, body: { id: a.id, amount: '1', reason: 'seed' } });
      expect((await update({ prizeCurrency: 'ETH' })).code).toBe(6022);
      expect((await update({ endsAt: a.startsAt })).code).toBe(1001);
    });
  });

  describe('funding', () => {
    it('moves money from adjustments to the prize account in one audited entry; replays by key', async () => {
      const a = await createActivity(t, operator);
      const fundIt = (body: Record<string, unknown>, k?: string) =>
        call<ActivityFundResult>('POST', '/api/admin/activities/fund', { token: operator.token, key: k, body: { id: a.id, ...body } });
      const k = key();
      const first = await fundIt({ amount: '70', reason: 'budget' }, k);
      expect(first.data).toMatchObject({ amount: '70', funded: '70', prizeTotal: '120', status: 'live', replayed: false });
      const again = await fundIt({ amount: '70', reason: 'budget' }, k);
      expect(again.data).toMatchObject({ entryId: first.data.entryId, funded: '70', replayed: true });
      expect((await fundIt({ amount: '71', reason: 'budget' }, k)).code).toBe(3010);
      expect((await fundIt({ amount: '0.0000001', reason: 'x' })).code).toBe(3002);
      expect((await fundIt({ amount: '-1', reason: 'x' })).code).toBe(1001);
      expect((await fundIt({ amount: '1', reason: '' })).code).toBe(1001);
      const postings = await q<{ kind: string; amount: string }>(
        `select a.kind, p.amount::text as amount from postings p join accounts a on a.id = p.account_id
         where p.entry_id = $1 order by p.id`,
        [first.data.entryId],
      );
      expect(postings.map((p) => [p.kind, new Decimal(p.amount).toFixed()])).toEqual([
        ['adjustments', '-70'],
        ['prizes', '70'],
      ]);
      const audits = await q<{ action: string }>(`select action from operator_actions where action = 'activity.fund' and target_id = $1`, [
        String(a.id),
      ]);
      expect(audits).toHaveLength(1);
      const audit = (await call<AuditReport>('GET', '/api/admin/ledger/audit', { token: operator.token })).data;
      expect(audit.checks.filter((c) => !c.ok)).toEqual([]);
    });
  });

  it('the audit catches money put into the prize account outside a funding', async () => {
    const post = async (amount: string) => {
      const [{ e }] = (await q<{ e: number }>(`select ledger_open_entry('test', null, null, null, 'test') as e`)) as [{ e: number }];
      await q(
        `select ledger_post($1, array[ledger_account(null, $2, 'world'), activity_prize_account($2)], array[-($3::numeric), $3::numeric])`,
        [e, USDT, amount],
      );
      // A bare entry has no business row; the check under test is the prize account's.
      return e;
    };
    await post('5');
    const failing = (await auditLedger(t.database)).checks.filter((c) => !c.ok).map((c) => c.name);
    expect(failing).toContain('prize_account_matches_activities');
    await post('-5');
    const after = (await auditLedger(t.database)).checks.find((c) => c.name === 'prize_account_matches_activities');
    expect(after?.ok).toBe(true);
  });

  describe('public views and ranking', () => {
    it('details, list, ranking and my rank: masked names, window edges, ties, gap to the next prize', async () => {
      const alice = await newUser({ nickname: 'Alice1', email: 'alice.smith@example.com' });
      const bob = await newUser({ nickname: '', email: 'bob@example.com' });
      const carol = await newUser({ nickname: 'Carol' });
      const outsider = await newUser({ nickname: 'Late' });
      const before = await swap(alice, USDT, ETH, '999'); // before the window: ignored
      const first = await swap(alice, USDT, ETH, '100'); // window opens exactly here (inclusive)
      await swap(bob, ETH, USDT, '0.05'); // 0.05 x 2991 = 149.55 USDT
      await swap(carol, USDT, ETH, '50');
      await swap(carol, ETH, BTC, '1'); // no USDT side: adds nothing
      await swap(carol, USDT, ETH, '99.55'); // carol reaches 149.55 after bob: ranks below him
      const closing = await swap(outsider, USDT, ETH, '500'); // window closes exactly here (exclusive)
      const startsAt = await createdAt(t.database, 'swaps', first);
      const endsAt = await createdAt(t.database, 'swaps', closing);
      expect(startsAt > (await createdAt(t.database, 'swaps', before))).toBe(true);
      const a = await createActivity(t, operator, {
        startsAt,
        endsAt,
        minScore: '100',
        prizes: [
          { rankFrom: 1, rankTo: 1, amount: '30' },
          { rankFrom: 2, rankTo: 2, amount: '20' },
        ],
      });
      const r = await ranking(a.id);
      expect(r).toMatchObject({ activityId: a.id, status: 'underfunded', metric: 'swap_volume_usdt', prizeCurrency: 'USDT', qualified: 3 });
      expect(r.items).toEqual([
        { rank: 1, name: 'b***@e***.com', avatar: null, score: '149.55', prize: '30' },
        { rank: 2, name: 'Ca***ol', avatar: null, score: '149.55', prize: '20' },
        { rank: 3, name: 'Al***e1', avatar: null, score: '100', prize: null },
      ]);
      expect(JSON.stringify(r)).not.toContain('bob@example.com');
      expect((await ranking(a.id, 1)).items).toHaveLength(1);

      const mine = async (u: TestUser) =>
        (await call<ActivityUserRank>('GET', `/api/activity/getUserRank?id=${a.id}`, { token: u.token })).data;
      expect(await mine(alice)).toEqual({
        activityId: a.id,
        rank: 3,
        score: '100',
        minScore: '100',
        gapToNextPrize: '49.55',
        nextPrizeRank: 2,
        prize: null,
        prizeCurrency: 'USDT',
      });
      expect(await mine(carol)).toMatchObject({ rank: 2, prize: '20', nextPrizeRank: 1, gapToNextPrize: '0' });
      expect(await mine(bob)).toMatchObject({ rank: 1, prize: '30', nextPrizeRank: null, gapToNextPrize: null });
      expect(await mine(outsider)).toMatchObject({ rank: null, score: '0', gapToNextPrize: '149.55', nextPrizeRank: 2 });
      expect(await mine(user)).toMatchObject({ rank: null, score: '0' });

      const details = await call<ActivityDetails>('POST', '/api/activity/details', { body: { id: a.id }, lang: 'en-US' });
      expect(details.data).toMatchObject({
        id: a.id,
        title: 'Swap race',
        rulesHtml: '<p>Ranked by <strong>swap volume</strong></p>\n',
        metric: 'swap_volume_usdt',
        status: 'underfunded',
        minScore: '100',
        prizeTotal: '50',
        funded: '0',
        startsAt: new Date(startsAt).toISOString(),
      });
      const zh = await call<ActivityDetails>('POST', '/api/activity/details', { body: { id: a.id } });
      expect(zh.data.title).toBe('兑换冲榜');
      const list = await call<ActivityList>('GET', '/api/activity/list', { lang: 'en-US' });
      expect(list.data.items.find((i) => i.id === a.id)).toMatchObject({ status: 'underfunded', prizeTotal: '50' });
      expect(list.data.items[0]!.status).toBe('live');
    });

    it('equal scores reached at the same moment rank by uid; transfers below the minimum do not count', async () => {
      const early = await newUser();
      const late = await newUser();
      const sink = await newUser();
      const a = await createActivity(t, operator, {
        metric: 'transfers_sent',
        metricCurrency: 'USDT',
        minTransfer: '1',
        prizes: [{ rankFrom: 1, rankTo: 2, amount: '5' }],
      });
      // One transaction: both transfers carry the same created_at.
      await inTransaction(t.database, async (tx) => {
        for (const from of [late, early]) {
          await tx(`select * from coffer_transfer_apply($1, $2, null, null, $3, 2, null, 'uid', null, null, null, null)`, [
            from.uid,
            sink.uid,
            USDT,
          ]);
        }
        await tx(`select * from coffer_transfer_apply($1, $2, null, null, $3, 0.5, null, 'uid', null, null, null, null)`, [
          sink.uid,
          early.uid,
          USDT,
        ]);
      });
      const r = await ranking(a.id);
      expect(r.items.map((i) => [i.rank, i.score])).toEqual([
        [1, '1'],
        [2, '1'],
      ]);
      const ranks = await q<{ user_id: number; rank: number }>('select user_id, rank from coffer_activity_ranking($1)', [a.id]);
      expect(ranks.map((x) => [Number(x.user_id), x.rank])).toEqual([
        [early.uid, 1],
        [late.uid, 2],
      ]);
    });

    it('transfers count once per distinct recipient: three transfers to one friend do not beat two to two people', async () => {
      const farmer = await newUser();
      const friend = await newUser();
      const honest = await newUser();
      const [alice, bob] = [await newUser(), await newUser()];
      const a = await createActivity(t, operator, {
        metric: 'transfers_sent',
        metricCurrency: 'USDT',
        minTransfer: '1',
        prizes: [{ rankFrom: 1, rankTo: 1, amount: '5' }],
      });
      const send = (from: { uid: number }, to: { uid: number }) =>
        q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 1, null, 'uid', null, null, null, null)`, [from.uid, to.uid, USDT]);
      for (let i = 0; i < 3; i++) await send(farmer, friend);
      await send(honest, alice);
      await send(honest, bob);
      const scores = await q<{ user_id: number; score: string; rank: number }>(
        'select user_id, score::text, rank from coffer_activity_ranking($1) order by rank',
        [a.id],
      );
      const mine = scores.filter((x) => [farmer.uid, honest.uid].includes(Number(x.user_id)));
      expect(mine.map((x) => [Number(x.user_id), x.score])).toEqual([
        [honest.uid, '2'],
        [farmer.uid, '1'],
      ]);
      const [own] = await q<{ s: string }>('select coffer_activity_user_score($1, $2)::text as s', [a.id, farmer.uid]);
      expect(own?.s).toBe('1');
    });

    it('an account an operator disabled takes no rank, so the next user moves up', async () => {
      const first = await newUser();
      const second = await newUser();
      const sink = await newUser();
      const a = await createActivity(t, operator, {
        metric: 'transfers_sent',
        metricCurrency: 'USDT',
        minTransfer: '1',
        prizes: [{ rankFrom: 1, rankTo: 1, amount: '5' }],
      });
      for (const [from, times] of [
        [first, 2],
        [second, 1],
      ] as const) {
        for (let i = 0; i < times; i++) {
          await q(`select * from coffer_transfer_apply($1, $2, null, null, $3, 2, null, 'uid', null, null, null, null)`, [
            from.uid,
            sink.uid,
            USDT,
          ]);
        }
      }
      const ranked = async () =>
        (await q<{ user_id: number }>('select user_id from coffer_activity_ranking($1) order by rank', [a.id]))
          .map((x) => Number(x.user_id))
          // Other tests' transfers fall in the same window: look at this test's two users.
          .filter((uid) => uid === first.uid || uid === second.uid);
      expect(await ranked()).toEqual([first.uid, second.uid]);
      const off = await call('POST', `/api/admin/users/${first.uid}/disable`, { token: operator.token, body: { reason: 'fraud review' } });
      expect(off.code).toBe(0);
      expect(await ranked()).toEqual([second.uid]);
    });

    it('an activity before its start counts nothing and shows upcoming', async () => {
      const u = await newUser();
      await swap(u, USDT, ETH, '10');
      const a = await createActivity(t, operator, {
        startsAt: new Date(Date.now() + hour).toISOString(),
        endsAt: new Date(Date.now() + 2 * hour).toISOString(),
      });
      const r = await ranking(a.id);
      expect(r).toMatchObject({ status: 'upcoming', qualified: 0, items: [] });
      expect((await call<ActivityUserRank>('GET', `/api/activity/getUserRank?id=${a.id}`, { token: u.token })).data).toMatchObject({
        rank: null,
        score: '0',
        gapToNextPrize: '0',
        nextPrizeRank: 3,
      });
    });

    it('the board is computed at most once per RANKING_CACHE_MS per process', async () => {
      const a = await createActivity(t, operator, { startsAt: new Date().toISOString() });
      const u = await newUser();
      await swap(u, USDT, ETH, '10');
      // The cache's clock is set around the reads (never the swaps), so a slow machine cannot
      // stretch the time between them past RANKING_CACHE_MS and make the test flaky.
      const computedBy = Date.now();
      expect((await ranking(a.id)).items.map((i) => i.score)).toEqual(['10']);
      await swap(u, USDT, ETH, '5');
      const clock = vi.spyOn(Date, 'now');
      try {
        clock.mockReturnValue(computedBy + RANKING_CACHE_MS - 1);
        expect((await ranking(a.id)).items.map((i) => i.score)).toEqual(['10']);
      } finally {
        clock.mockRestore();
      }
      const later = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + RANKING_CACHE_MS + 1);
      try {
        expect((await ranking(a.id)).items.map((i) => i.score)).toEqual(['15']);
      } finally {
        later.mockRestore();
      }
    });

    it('scores equal a recomputation from the swaps table after concurrent swaps', async () => {
      const a = await createActivity(t, operator, { prizes: [{ rankFrom: 1, rankTo: 100, amount: '1' }] });
      const users = await Promise.all([1, 2, 3, 4, 5].map(() => newUser()));
      const jobs: Promise<number>[] = [];
      for (let i = 0; i < 40; i++) {
        const u = users[i % users.length]!;
        const pair = i % 3 === 0 ? [ETH, USDT, '0.01'] : i % 3 === 1 ? [USDT, ETH, `${i + 1}.5`] : [ETH, BTC, '0.01'];
        jobs.push(swap(u, pair[0] as number, pair[1] as number, pair[2] as string));
      }
      await Promise.all(jobs);
      const rows = await q<{ user_id: number; from_currency_id: number; from_amount: string; rate: string; to_currency_id: number }>(
        `select s.user_id, s.from_currency_id, s.to_currency_id, s.from_amount::text as from_amount, s.rate::text as rate
         from swaps s, activities a where a.id = $1 and s.created_at >= a.starts_at and s.created_at < a.ends_at`,
        [a.id],
      );
      const expected = new Map<number, DecimalJs>();
      for (const s of rows) {
        let v = new Decimal(0);
        if (Number(s.from_currency_id) === USDT) v = new Decimal(s.from_amount);
        else if (Number(s.to_currency_id) === USDT) v = new Decimal(s.from_amount).mul(s.rate).toDecimalPlaces(6, Decimal.ROUND_DOWN);
        expected.set(Number(s.user_id), (expected.get(Number(s.user_id)) ?? new Decimal(0)).plus(v));
      }
      const r = await ranking(a.id, 100);
      const got = await q<{ user_id: number; score: string }>('select user_id, score::text as score from coffer_activity_ranking($1)', [
        a.id,
      ]);
      expect(r.items.length).toBe(got.length);
      for (const g of got) expect(new Decimal(g.score).eq(expected.get(Number(g.user_id))!), `uid ${g.user_id}`).toBe(true);
      for (const u of users) expect(got.some((g) => Number(g.user_id) === u.uid)).toBe(true);
    });
  });

  describe('payout', () => {
    it('pays nothing while underfunded, then every winner once with a notice, and ends paid', async () => {
      const w1 = await newUser({ nickname: 'Winner1' });
      const w2 = await newUser({ nickname: 'Winner2' });
      const first = await swap(w1, USDT, ETH, '300');
      await swap(w2, USDT, ETH, '200');
      const last = await swap(w2, USDT, ETH, '1');
      const a = await createActivity(t, operator, {
        startsAt: await createdAt(t.database, 'swaps', first),
        endsAt: new Date(new Date(await createdAt(t.database, 'swaps', last)).getTime() + 1).toISOString(),
        prizes: [
          { rankFrom: 1, rankTo: 1, amount: '50' },
          { rankFrom: 2, rankTo: 3, amount: '25' },
        ],
      });
      const fundIt = (amount: string) =>
        call<ActivityFundResult>('POST', '/api/admin/activities/fund', {
          token: operator.token,
          body: { id: a.id, amount, reason: 'prizes' },
        });
      expect((await fundIt('60')).data.status).toBe('underfunded');
      await payoutTick(t.database);
      expect(await q('select * from activity_winners where activity_id = $1', [a.id])).toEqual([]);
      const before1 = await balance(w1.uid);
      expect((await fundIt('40')).data).toMatchObject({ funded: '100', status: 'ended' });
      await payoutTick(t.database);
      await payoutTick(t.database);
      expect(new Decimal(await balance(w1.uid)).minus(before1).toFixed()).toBe('50');
      const admin = await call<ActivityAdminList>('GET', '/api/admin/activities/list', { token: operator.token });
      expect(admin.data.items.find((i) => i.id === a.id)).toMatchObject({
        status: 'paid',
        funded: '100',
        paid: '75',
        winners: 2,
        winnersPaid: 2,
      });
      const payouts = await call<{ items: { rank: number; uid: number; amount: string; entryId: number | null }[] }>(
        'GET',
        `/api/admin/activities/payouts?id=${a.id}`,
        { token: operator.token },
      );
      expect(payouts.data.items.map((p) => [p.rank, p.uid, p.amount, p.entryId !== null])).toEqual([
        [1, w1.uid, '50', true],
        [2, w2.uid, '25', true],
      ]);
      const notices = await q<{ user_id: number; title_en: string; body_en: string }>(
        `select user_id, title_en, body_en from notices where dedupe_key like $1 order by user_id`,
        [`activity:${a.id}:%`],
      );
      expect(notices.map((n) => Number(n.user_id))).toEqual([w1.uid, w2.uid]);
      expect(notices[0]!.body_en).toContain('50 USDT');
      // Funding after settlement is refused; the leftover 25 stays in the prize account.
      expect((await fundIt('1')).code).toBe(6021);
      expect((await call('POST', '/api/admin/activities/update', { token: operator.token, body: { id: a.id, titleEn: 'x' } })).code).toBe(
        6021,
      );
      const report = await auditLedger(t.database);
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    });
  });

  describe('audit of activity rows', () => {
    it('catches a prize or funding row that differs from its entry, and an activity paid beyond its own funding', async () => {
      const u = await newUser();
      const only = await swap(u, USDT, ETH, '7');
      const a = await createActivity(t, operator, {
        startsAt: await createdAt(t.database, 'swaps', only),
        endsAt: new Date(new Date(await createdAt(t.database, 'swaps', only)).getTime() + 1).toISOString(),
        prizes: [{ rankFrom: 1, rankTo: 1, amount: '3' }],
      });
      const other = await createActivity(t, operator, { prizes: [{ rankFrom: 1, rankTo: 1, amount: '1' }] });
      await call('POST', '/api/admin/activities/fund', { token: operator.token, body: { id: a.id, amount: '3', reason: 'prizes' } });
      await payoutTick(t.database);
      expect((await q('select 1 from activity_winners where activity_id = $1 and entry_id is not null', [a.id])).length).toBe(1);
      const failing = async () => (await auditLedger(t.database)).checks.filter((c) => !c.ok).map((c) => c.name);
      expect(await failing()).toEqual([]);
      // Both rows say 1 more than their entries moved: the prize account's total still matches.
      await q('update activity_fundings set amount = amount + 1 where activity_id = $1', [a.id]);
      await q('update activity_winners set amount = amount + 1 where activity_id = $1', [a.id]);
      expect(await failing()).toEqual(['activity_rows_match_entries']);
      await q('update activity_fundings set amount = amount - 1 where activity_id = $1', [a.id]);
      await q('update activity_winners set amount = amount - 1 where activity_id = $1', [a.id]);
      // The funding credited to another activity of the currency: the paid one paid what it never had.
      await q('update activity_fundings set activity_id = $2 where activity_id = $1', [a.id, other.id]);
      expect(await failing()).toEqual(['activity_paid_within_funding']);
      await q('update activity_fundings set activity_id = $1 where activity_id = $2', [a.id, other.id]);
      expect(await failing()).toEqual([]);
    });
  });

  describe('payout from several processes at once', () => {
    it('three jobs running together pay each winner exactly once', async () => {
      const us = await Promise.all([1, 2, 3].map(() => newUser()));
      const entries: number[] = [];
      for (const [i, u] of us.entries()) entries.push(await swap(u, USDT, ETH, `${30 - i}`));
      const a = await createActivity(t, operator, {
        startsAt: await createdAt(t.database, 'swaps', entries[0]!),
        endsAt: new Date(new Date(await createdAt(t.database, 'swaps', entries[2]!)).getTime() + 1).toISOString(),
        prizes: [{ rankFrom: 1, rankTo: 3, amount: '2' }],
      });
      await call('POST', '/api/admin/activities/fund', { token: operator.token, body: { id: a.id, amount: '6', reason: 'prizes' } });
      const runs = await Promise.all([payoutTick(t.database), payoutTick(t.database), payoutTick(t.database)]);
      expect(runs.reduce((n, r) => n + r.paid, 0)).toBe(3);
      const paid = await q<{ user_id: number; n: number }>(
        `select w.user_id, count(e.id) as n from activity_winners w join journal_entries e on e.id = w.entry_id
         where w.activity_id = $1 group by w.user_id order by w.user_id`,
        [a.id],
      );
      // Users were created concurrently: their uids need not follow the array's order.
      const uids = us.map((u) => u.uid).sort((x, y) => x - y);
      expect(paid.map((p) => [Number(p.user_id), Number(p.n)])).toEqual(uids.map((uid) => [uid, 1]));
      expect((await auditLedger(t.database)).ok).toBe(true);
    });
  });

  it('rules are Markdown rendered without raw HTML or script links', async () => {
    const a = await createActivity(t, operator, {
      rulesEn: '<script>alert(1)</script>\n\n[x](javascript:alert(1)) and [ok](https://example.com)',
    });
    const html = (await call<ActivityDetails>('POST', '/api/activity/details', { body: { id: a.id }, lang: 'en-US' })).data.rulesHtml;
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('href="https://example.com"');
  });

  const balance = async (uid: number) => {
    const [row] = await q<{ balance: string }>(
      `select balance::text as balance from accounts where user_id = $1 and currency_id = $2 and kind = 'available'`,
      [uid, USDT],
    );
    return row?.balance ?? '0';
  };
});

describe('masking and prize ranks', () => {
  it('masks nicknames and e-mails without revealing either', () => {
    expect(maskNickname('Alice')).toBe('Al***ce');
    expect(maskNickname('Bob')).toBe('B***b');
    expect(maskNickname('Jo')).toBe('J***');
    expect(maskNickname('😀😀😀😀😀')).toBe('😀😀***😀😀');
    expect(maskEmailFully('alice@example.com')).toBe('a***@e***.com');
    expect(maskEmailFully('a@b.co.uk')).toBe('a***@b***.uk');
  });

  it('a nickname that spells the e-mail (the sign-up default) is masked as the e-mail', () => {
    // Sign-up makes the e-mail's local part the nickname: 'al***ce' would give away 4 of its 5 characters.
    expect(rankName('alice', 'alice@example.com')).toBe('a***@e***.com');
    expect(rankName('Alice', 'alice@example.com')).toBe('a***@e***.com');
    expect(rankName('alexandr', 'alexandra.very.long@example.com')).toBe('a***@e***.com');
    expect(rankName('alice@example.com', 'alice@example.com')).toBe('a***@e***.com');
    expect(rankName('Carol', 'u-123@example.com')).toBe('Ca***ol');
  });

  it('finds the next prize rank above a rank, across gaps in the table', () => {
    const tiers = [
      { rankFrom: 1, rankTo: 3, amount: '1' },
      { rankFrom: 10, rankTo: 10, amount: '1' },
    ];
    expect(nextPrizeRank(tiers, null)).toBe(10);
    expect(nextPrizeRank(tiers, 12)).toBe(10);
    expect(nextPrizeRank(tiers, 10)).toBe(3);
    expect(nextPrizeRank(tiers, 5)).toBe(3);
    expect(nextPrizeRank(tiers, 2)).toBe(1);
    expect(nextPrizeRank(tiers, 1)).toBe(null);
  });
});
