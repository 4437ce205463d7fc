import type { AlertList, OperatorAlert } from '@coffer/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../../mail/mailer.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client, createUser, type TestUser } from '../../test/users.ts';
import { ALERT_MAIL_ATTEMPTS, alertTick } from './index.ts';

const MINUTE = 60_000;
const limits = { payoutWaitMinutes: 30, reviewMinutes: 60 };

/** Alerts that reach operators: one alert and one mail per operator per condition, whatever the ticks. */
describe('operator alerts', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  let zhOps: TestUser;
  let enOps: TestUser;
  let user: TestUser;
  let network: { id: number; name: string; currency_id: number };

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
    zhOps = await createUser(t, { email: 'zh-ops@alerts.test', role: 'operator' });
    enOps = await createUser(t, { email: 'en-ops@alerts.test', role: 'operator' });
    await t.database.sql.query(`update users set language = 'en-US' where id = $1`, [enOps.uid]);
    // Support answers users, not custody: never mailed (every count below would show them).
    await createUser(t, { email: 'support-ops@alerts.test', role: 'operator', roles: ['support'] });
    user = await createUser(t, { email: 'someone@alerts.test' });
    const [first] = await t.database.sql.query<{ id: number; name: string; currency_id: number }>(
      `select id, name, currency_id from networks where native order by id limit 1`,
    );
    network = first!;
    await t.database.sql.query('update networks set hot_floor = 10 where id = $1', [network.id]);
  });
  afterAll(() => t.close());

  /** Clears every condition and resolves what is open, so each test starts from none. */
  beforeEach(async () => {
    const q = (s: string) => t.database.sql.query(s);
    await q(`update chain_incidents set resolved_at = now(), resolution = 'test' where resolved_at is null`);
    await q(`update hot_alerts set closed_at = now() where closed_at is null`);
    await q(`update withdrawals set status = 'rejected' where status = 'review'`);
    await q(`update withdrawals set wait_reason = null, wait_since = null where wait_reason is not null`);
    await q('delete from reconcile_snapshots');
    await tick();
  });

  const tick = (now = new Date(), mailer: Mailer = t.app.deps.mailer) => alertTick({ database: t.database, mailer, limits }, now);
  const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE);
  const alertsOf = (key: string) =>
    t.database.sql.query<{ id: string; resolved_at: Date | null; mailed_at: Date | null }>(
      'select id, resolved_at, mailed_at from operator_alerts where key = $1 order by id',
      [key],
    );
  /** Mails asked of the mailer, per recipient, since `from` (an index into sendAttempts). */
  const sentSince = (from: number) => {
    const counts: Record<string, number> = {};
    for (const to of t.sendAttempts.slice(from)) counts[to] = (counts[to] ?? 0) + 1;
    return counts;
  };
  const oneEach = () => ({ [zhOps.email]: 1, [enOps.email]: 1 });
  const lastMailTo = (email: string) => {
    const raw = t.mailbox.mails.filter((m) => m.to === email).at(-1)?.raw ?? '';
    // the text part, quoted-printable or base64 decoded enough to read
    return decodeMail(raw);
  };
  const list = async (token = zhOps.token) => (await call<AlertList>('GET', '/api/admin/alerts', { token })).data;
  const withdrawal = async (status: 'review' | 'queued', waitReason: string | null = null) => {
    const [w] = await t.database.sql.query<{ id: string }>(
      `insert into withdrawals (user_id, network_id, currency_id, address, amount, fee, status, wait_reason, wait_since)
       values ($1, $2, $3, '0x000000000000000000000000000000000000dEaD', 1.25, 0.01, $4, $5::text, case when $5::text is null then null else now() end)
       returning id`,
      [user.uid, network.id, network.currency_id, status, waitReason],
    );
    return Number(w!.id);
  };
  const belowFloor = () =>
    t.database.sql.query(`insert into hot_alerts (network_id, kind, detail, amount) values ($1, 'below_floor', 'test', 2.5)`, [network.id]);

  it('a hot wallet below its floor opens one alert and mails each operator once, however many ticks run', async () => {
    const key = `hot_below_floor:network:${network.id}`;
    const from = t.sendAttempts.length;
    await belowFloor();
    const first = await tick();
    expect(first).toMatchObject({ opened: 1, mailed: 2, mailFailures: 0 });
    for (let i = 0; i < 3; i++) expect(await tick()).toMatchObject({ opened: 0, resolved: 0, mailed: 0 });
    expect(sentSince(from)).toEqual(oneEach());
    const rows = await alertsOf(key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.resolved_at).toBeNull();
    expect(rows[0]!.mailed_at).not.toBeNull();
    // what, where, what to do: Chinese then English without a chosen language, English when chosen
    const zh = lastMailTo(zhOps.email);
    expect(zh).toContain(`热钱包余额低于下限 10`);
    expect(zh).toContain(`网络：${network.name}`);
    expect(zh).toContain('至少 2.5');
    expect(zh).toContain('Send at least 2.5');
    expect(zh.indexOf('热钱包')).toBeLessThan(zh.indexOf('hot wallet'));
    const en = lastMailTo(enOps.email);
    expect(en).toContain(`network: ${network.name}`);
    expect(en).toContain('Send at least 2.5');
    expect(en).not.toContain('热钱包');
    expect(t.sendAttempts.slice(from)).not.toContain(user.email);

    // the condition clears: resolved, nobody mailed; it recurs: a new alert, mailed again
    await t.database.sql.query('update hot_alerts set closed_at = now() where closed_at is null');
    expect(await tick()).toMatchObject({ opened: 0, resolved: 1, mailed: 0 });
    expect((await alertsOf(key))[0]!.resolved_at).not.toBeNull();
    expect(sentSince(from)).toEqual(oneEach());
    await belowFloor();
    expect(await tick()).toMatchObject({ opened: 1, mailed: 2 });
    await tick();
    expect(await alertsOf(key)).toHaveLength(2);
    expect(sentSince(from)).toEqual({ [zhOps.email]: 2, [enOps.email]: 2 });
  });

  it('a withdrawal in review alerts once it has waited longer than the limit, by the clock passed in', async () => {
    const id = await withdrawal('review');
    const key = `review_too_long:withdrawal:${id}`;
    const from = t.sendAttempts.length;
    expect(await tick(later(limits.reviewMinutes - 1))).toMatchObject({ opened: 0 });
    expect(await alertsOf(key)).toHaveLength(0);
    expect(await tick(later(limits.reviewMinutes + 1))).toMatchObject({ opened: 1, mailed: 2 });
    await tick(later(limits.reviewMinutes + 2));
    await tick(later(limits.reviewMinutes + 90));
    expect(sentSince(from)).toEqual(oneEach());
    expect(lastMailTo(enOps.email)).toContain(`Withdrawal #${id} (1.25 `);
    expect(lastMailTo(zhOps.email)).toContain(`提现 #${id}`);
    expect(lastMailTo(zhOps.email)).not.toContain('0x000000000000000000000000000000000000dEaD');
    // reviewed (rejected): resolved
    await t.database.sql.query(`update withdrawals set status = 'rejected' where id = $1`, [id]);
    expect(await tick(later(limits.reviewMinutes + 91))).toMatchObject({ resolved: 1 });
    expect((await alertsOf(key))[0]!.resolved_at).not.toBeNull();
  });

  it('a payout waiting beyond its limit alerts with the reason; the wait ending resolves it', async () => {
    const id = await withdrawal('queued', 'fees_high');
    const key = `payout_waiting:withdrawal:${id}`;
    const from = t.sendAttempts.length;
    await tick(later(limits.payoutWaitMinutes - 1));
    expect(await alertsOf(key)).toHaveLength(0);
    for (let i = 1; i <= 3; i++) await tick(later(limits.payoutWaitMinutes + i));
    expect(await alertsOf(key)).toHaveLength(1);
    expect(sentSince(from)).toEqual(oneEach());
    expect(lastMailTo(enOps.email)).toContain('network fees above the cap');
    await t.database.sql.query('update withdrawals set wait_reason = null, wait_since = null where id = $1', [id]);
    expect(await tick(later(limits.payoutWaitMinutes + 4))).toMatchObject({ resolved: 1, mailed: 0 });
  });

  it('an open incident and reconciliation drift are one alert each (a drift incident is not also an incident alert)', async () => {
    const [reorg] = await t.database.sql.query<{ id: string }>(
      `insert into chain_incidents (network_id, chain_id, kind, detail) values ($1, 31337, 'reorged_after_credit', 'test') returning id`,
      [network.id],
    );
    const [drift] = await t.database.sql.query<{ id: string }>(
      `insert into chain_incidents (network_id, chain_id, kind, detail) values ($1, 31337, 'reconcile_drift', 'test') returning id`,
      [network.id],
    );
    await t.database.sql.query(
      `insert into reconcile_snapshots (network_id, block_number, hot, cold, deposit_addresses, float, drift, ok)
       values ($1, 1, 0, 0, 0, 0, -0.5, false)`,
      [network.id],
    );
    const from = t.sendAttempts.length;
    expect(await tick()).toMatchObject({ opened: 2, mailed: 4 });
    await tick();
    expect(sentSince(from)).toEqual({ [zhOps.email]: 2, [enOps.email]: 2 });
    expect(await alertsOf(`incident_open:incident:${reorg!.id}`)).toHaveLength(1);
    expect(await alertsOf(`incident_open:incident:${drift!.id}`)).toHaveLength(0);
    expect(await alertsOf(`reconcile_drift:network:${network.id}`)).toHaveLength(1);
    const open = (await list()).open;
    expect(open.find((a) => a.kind === 'reconcile_drift')).toMatchObject({ networkName: network.name, facts: { drift: '-0.5' } });
    // the incident resolved but the latest reconciliation still off: the drift alert stays
    await t.database.sql.query('update chain_incidents set resolved_at = now() where id = any(array[$1, $2]::bigint[])', [
      reorg!.id,
      drift!.id,
    ]);
    expect(await tick()).toMatchObject({ resolved: 1 });
    await t.database.sql.query('update reconcile_snapshots set ok = true, drift = 0');
    expect(await tick()).toMatchObject({ resolved: 1, opened: 0 });
  });

  it('two ticks at once open one alert and mail each operator once; the open key refuses a second row', async () => {
    await belowFloor();
    const from = t.sendAttempts.length;
    const results = await Promise.all([tick(), tick(), tick()]);
    expect(results.reduce((n, r) => n + r.opened, 0)).toBe(1);
    expect(results.reduce((n, r) => n + r.mailed, 0)).toBe(2);
    expect(sentSince(from)).toEqual(oneEach());
    const key = `hot_below_floor:network:${network.id}`;
    await expect(
      t.database.sql.query(
        `insert into operator_alerts (key, kind, subject_type, subject_id, network_id, since, opened_at)
         values ($1, 'hot_below_floor', 'network', $2, $2, now(), now())`,
        [key, network.id],
      ),
    ).rejects.toThrow();
  });

  it('a failing mail is retried on later ticks up to the named limit, never resent once delivered', async () => {
    await belowFloor();
    let calls = 0;
    const broken: Mailer = {
      send: async () => {
        calls++;
        throw new Error('smtp down');
      },
      close: () => {},
    };
    for (let i = 0; i < ALERT_MAIL_ATTEMPTS + 3; i++) await tick(new Date(), broken);
    expect(calls).toBe(ALERT_MAIL_ATTEMPTS * 2);
    const row = (await alertsOf(`hot_below_floor:network:${network.id}`)).at(-1);
    expect(row?.resolved_at).toBeNull();
    expect(row?.mailed_at).toBeNull();
    const from = t.sendAttempts.length;
    await tick();
    expect(sentSince(from)).toEqual({});
  });

  describe('admin API', () => {
    const ack = (id: number | string, reason: unknown = 'topping up from cold now', token = zhOps.token) =>
      call<OperatorAlert>('POST', `/api/admin/alerts/${id}/acknowledge`, { token, body: { reason } });

    it('lists open alerts newest first with the badge count; acknowledging is audited and keeps it open', async () => {
      const id = await withdrawal('review');
      await belowFloor();
      await tick(later(limits.reviewMinutes + 1));
      const before = await list();
      expect(before.open.map((a) => a.kind)).toEqual(expect.arrayContaining(['hot_below_floor', 'review_too_long']));
      expect(before.unacknowledged).toBe(before.open.length);
      const review = before.open.find((a) => a.kind === 'review_too_long' && a.subjectId === id)!;
      expect(review).toMatchObject({ subjectType: 'withdrawal', networkName: network.name, facts: { amount: '1.25' } });
      const ids = before.open.map((a) => a.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      const done = await ack(review.id);
      expect(done.code).toBe(0);
      expect(done.data).toMatchObject({
        id: review.id,
        acknowledgedBy: zhOps.email,
        acknowledgeReason: 'topping up from cold now',
        resolvedAt: null,
      });
      const after = await list(enOps.token);
      expect(after.unacknowledged).toBe(before.unacknowledged - 1);
      expect(after.open.map((a) => a.id)).toContain(review.id);
      const audit = await t.database.sql.query<{ actor: string; reason: string }>(
        `select actor, reason from operator_actions where action = 'alert.acknowledge' and target_id = $1`,
        [String(review.id)],
      );
      expect(audit).toEqual([{ actor: zhOps.email, reason: 'topping up from cold now' }]);
      expect((await ack(review.id, 'again', enOps.token)).code).toBe(3051);

      // resolved: listed among the resolved, and no longer acknowledgeable
      await t.database.sql.query(`update withdrawals set status = 'rejected' where id = $1`, [id]);
      await tick(later(limits.reviewMinutes + 2));
      const hot = (await list()).open.find((a) => a.kind === 'hot_below_floor')!;
      await t.database.sql.query('update hot_alerts set closed_at = now() where closed_at is null');
      await tick();
      const resolved = (await list()).resolved;
      expect(resolved.find((a) => a.id === review.id)?.resolvedAt).not.toBeNull();
      expect((await ack(hot.id)).code).toBe(3050);
    });

    it('refuses non-operators, signed-out callers, bad ids, unknown ids and a missing reason', async () => {
      await belowFloor();
      await tick();
      const alert = (await list()).open[0]!;
      expect(await ack(alert.id, 'x', user.token)).toMatchObject({ status: 403, code: 4003 });
      expect((await call('GET', '/api/admin/alerts', { token: user.token })).status).toBe(403);
      expect((await call('GET', '/api/admin/alerts')).code).toBe(2001);
      expect((await call('POST', `/api/admin/alerts/${alert.id}/acknowledge`, { body: { reason: 'x' } })).code).toBe(2001);
      for (const bad of ['0', 'abc', '01', '1e3', '-1']) expect((await ack(bad)).code).toBe(1001);
      expect((await ack(987654321)).code).toBe(4004);
      for (const reason of ['', '   ', 'tab\there', null, 42]) expect((await ack(alert.id, reason)).code).toBe(1001);
      const [still] = await t.database.sql.query<{ acknowledged_at: Date | null }>(
        'select acknowledged_at from operator_alerts where id = $1',
        [alert.id],
      );
      expect(still!.acknowledged_at).toBeNull();
      expect(
        await t.database.sql.query(`select 1 from operator_actions where action = 'alert.acknowledge' and target_id = $1`, [
          String(alert.id),
        ]),
      ).toHaveLength(0);
    });
  });
});

/** The readable text of a captured SMTP message (quoted-printable or base64 parts decoded). */
function decodeMail(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts
    .map((p) => {
      const [head, ...rest] = p.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*base64/i.test(head ?? '')) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head ?? '')) {
        const bytes = body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
      }
      return body;
    })
    .join('\n');
}
