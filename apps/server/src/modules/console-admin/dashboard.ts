import type { DashboardData } from '@coffer/contract';
import { trimDecimal } from '@coffer/contract';
import type { Database } from '../../db/client.ts';
import { lastAuditRun } from './ledger.ts';

interface BalanceRow {
  id: number;
  code: string;
  available: string;
  frozen: string;
  house: string;
  fees: string;
  world: string;
  adjustments: string;
}

interface CustodyRow {
  network_id: number;
  code: string;
  name: string;
  hot: string;
  cold: string;
  deposit_addresses: string;
  float: string;
  drift: string;
  ok: boolean;
  block: string;
  taken_at: Date | string;
}

interface VolumeRow {
  id: number;
  code: string;
  sold24h: string;
  bought24h: string;
  sold7d: string;
  bought7d: string;
}

const sumOfKind = (kind: string) => `coalesce(sum(a.balance) filter (where a.kind = '${kind}'), 0)::text as ${kind}`;
const swapSum = (column: 'from' | 'to', window: string, as: string) =>
  `coalesce(sum(s.${column}_amount) filter (where s.${column}_currency_id = c.id and s.created_at > now() - interval '${window}'), 0)::text as "${as}"`;

/**
 * The console's first page: users, money per currency, swap volume, custody per network at the
 * latest reconciliation (hot, cold, deposit addresses, float, drift) and open hot-wallet
 * alerts, open reviews, last audit.
 */
export async function dashboard(database: Database): Promise<DashboardData> {
  const [users] = await database.sql.query<{ total: number; new24h: number; disabled: number }>(
    `select count(*)::int as total,
            (count(*) filter (where created_at > now() - interval '24 hours'))::int as new24h,
            (count(*) filter (where disabled_at is not null))::int as disabled
       from users`,
  );
  const balances = await database.sql.query<BalanceRow>(
    `select c.id, c.code, ${['available', 'frozen', 'house', 'fees', 'world', 'adjustments'].map(sumOfKind).join(', ')}
       from currencies c left join accounts a on a.currency_id = c.id
      group by c.id, c.code, c.sort order by c.sort, c.id`,
  );
  const volume = await database.sql.query<VolumeRow>(
    `select c.id, c.code, ${swapSum('from', '24 hours', 'sold24h')}, ${swapSum('to', '24 hours', 'bought24h')},
            ${swapSum('from', '7 days', 'sold7d')}, ${swapSum('to', '7 days', 'bought7d')}
       from currencies c
       left join swaps s on (s.from_currency_id = c.id or s.to_currency_id = c.id) and s.created_at > now() - interval '7 days'
      group by c.id, c.code, c.sort order by c.sort, c.id`,
  );
  const [review] = await database.sql.query<{ n: number }>(`select count(*)::int as n from withdrawals where status = 'review'`);
  const loops = await database.sql.query<{ chain_id: number; healthy: boolean; since: Date | string; last_error: string | null }>(
    'select chain_id, healthy, since, last_error from chain_rpc_health order by chain_id',
  );
  return {
    users: { total: users?.total ?? 0, new24h: users?.new24h ?? 0, disabled: users?.disabled ?? 0 },
    balances: balances.map((r) => ({
      currencyId: r.id,
      code: r.code,
      usersAvailable: trimDecimal(r.available),
      usersFrozen: trimDecimal(r.frozen),
      house: trimDecimal(r.house),
      fees: trimDecimal(r.fees),
      world: trimDecimal(r.world),
      adjustments: trimDecimal(r.adjustments),
    })),
    swapVolume: volume.map((r) => ({
      currencyId: r.id,
      code: r.code,
      sold24h: trimDecimal(r.sold24h),
      bought24h: trimDecimal(r.bought24h),
      sold7d: trimDecimal(r.sold7d),
      bought7d: trimDecimal(r.bought7d),
    })),
    ...(await custodyFigures(database)),
    withdrawalsInReview: review?.n ?? 0,
    chainLoops: loops.map((r) => ({
      chainId: r.chain_id,
      healthy: r.healthy,
      since: new Date(r.since).toISOString(),
      lastError: r.last_error,
    })),
    lastAudit: await lastAuditRun(database),
    generatedAt: new Date().toISOString(),
  };
}

/** Custody per network from the latest reconciliation, and the open hot-wallet alerts (docs/decisions/038). */
async function custodyFigures(database: Database): Promise<Pick<DashboardData, 'custody' | 'hotAlerts'>> {
  const custody = await database.sql.query<CustodyRow>(
    `select s.network_id, c.code, n.name, s.hot::text, s.cold::text, s.deposit_addresses::text, s.float::text, s.drift::text, s.ok,
            s.block_number::text as block, s.taken_at
       from reconcile_snapshots s join networks n on n.id = s.network_id join currencies c on c.id = n.currency_id
      order by n.chain_id, n.sort, n.id`,
  );
  const alerts = await database.sql.query<{ network_id: number; code: string; amount: string; detail: string; opened_at: Date | string }>(
    `select h.network_id, c.code, h.amount::text as amount, h.detail, h.opened_at
       from hot_alerts h join networks n on n.id = h.network_id join currencies c on c.id = n.currency_id
      where h.closed_at is null order by h.id`,
  );
  return {
    custody: custody.map((r) => ({
      networkId: r.network_id,
      code: r.code,
      networkName: r.name,
      hot: trimDecimal(r.hot),
      cold: trimDecimal(r.cold),
      depositAddresses: trimDecimal(r.deposit_addresses),
      float: trimDecimal(r.float),
      drift: trimDecimal(r.drift),
      ok: r.ok,
      block: r.block,
      takenAt: new Date(r.taken_at).toISOString(),
    })),
    hotAlerts: alerts.map((a) => ({
      networkId: a.network_id,
      code: a.code,
      amount: trimDecimal(a.amount),
      detail: a.detail,
      openedAt: new Date(a.opened_at).toISOString(),
    })),
  };
}
