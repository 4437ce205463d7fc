import { explorerLink, type OpenWithdrawal, REVIEW_FACTS_DAYS, trimDecimal, type WithdrawalReviewFacts } from '@coffer/contract';
import type { Database } from '../../db/client.ts';

/** The most open withdrawals one answer lists (oldest first); the review facts cover at most these. */
export const OPEN_WITHDRAWALS_LIMIT = 500;
/** Credential changes listed per user in the review facts (newest first, last REVIEW_FACTS_DAYS days). */
export const REVIEW_HOLDS_LIMIT = 20;

interface OpenRow {
  id: number;
  user_id: number;
  email: string;
  network_id: number;
  network_name: string;
  explorer_url: string | null;
  code: string;
  address: string;
  amount: string;
  fee: string;
  status: OpenWithdrawal['status'];
  tx_hash: string | null;
  age: number;
  wait_reason: 'fees_high' | null;
  wait_age: number | null;
  needs_second: boolean;
  first_by: string | null;
  first_at: Date | string | null;
  first_reason: string | null;
}

interface RowFacts {
  id: number;
  user_id: number;
  account_created_at: Date | string;
  completed_to: number;
  book_since: Date | string | null;
  totp: boolean;
  passkeys: number;
}

interface SumRow {
  key: number;
  code: string;
  count: number;
  sum: string;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const DAYS = `interval '${REVIEW_FACTS_DAYS} days'`;

function grouped<R extends { key: number }>(rows: R[]): Map<number, R[]> {
  const out = new Map<number, R[]>();
  for (const r of rows) {
    const k = Number(r.key);
    out.set(k, [...(out.get(k) ?? []), r]);
  }
  return out;
}

const sums = (rows: SumRow[] | undefined) => (rows ?? []).map((r) => ({ code: r.code, count: Number(r.count), sum: trimDecimal(r.sum) }));

/**
 * The facts of every withdrawal in review among `ids`, in four set-based queries whatever the
 * page's size (never one per row): the row's own facts, the users' holds, their deposits,
 * and each row's other withdrawals.
 */
async function reviewFacts(database: Database, ids: number[]): Promise<Map<number, WithdrawalReviewFacts>> {
  if (ids.length === 0) return new Map();
  const [own, holds, deposits, withdrawals] = await Promise.all([
    database.sql.query<RowFacts>(
      `select w.id, w.user_id, u.created_at as account_created_at,
              (select count(*)::int from withdrawals p
                where p.user_id = w.user_id and p.id <> w.id and p.status = 'completed' and lower(p.address) = lower(w.address)) as completed_to,
              (select b.created_at from address_book b
                where b.user_id = w.user_id and b.network_id = w.network_id and lower(b.address) = lower(w.address)) as book_since,
              exists (select 1 from user_totp t where t.user_id = w.user_id and t.enabled_at is not null) as totp,
              (select count(*)::int from passkeys k where k.user_id = w.user_id) as passkeys
         from withdrawals w join users u on u.id = w.user_id
        where w.id = any($1::bigint[])`,
      [ids],
    ),
    database.sql.query<{ key: number; at: Date | string; reason: string; ends_at: Date | string; active: boolean }>(
      `select x.uid as key, h.created_at as at, h.reason, coalesce(h.cancelled_at, h.ends_at) as ends_at,
              h.cancelled_at is null and h.ends_at > now() as active
         from (select distinct user_id as uid from withdrawals where id = any($1::bigint[])) x
         cross join lateral (select * from security_holds s where s.user_id = x.uid and s.created_at > now() - ${DAYS}
                              order by s.created_at desc limit ${REVIEW_HOLDS_LIMIT}) h
        order by x.uid, h.created_at desc`,
      [ids],
    ),
    database.sql.query<SumRow>(
      `select d.user_id as key, c.code, count(*)::int as count, sum(d.amount)::text as sum
         from deposits d join currencies c on c.id = d.currency_id
        where d.user_id in (select user_id from withdrawals where id = any($1::bigint[]))
          and d.status = 'credited' and d.credited_at > now() - ${DAYS}
        group by d.user_id, c.code, c.sort order by c.sort, c.code`,
      [ids],
    ),
    database.sql.query<SumRow>(
      `select w.id as key, c.code, count(*)::int as count, sum(p.amount)::text as sum
         from withdrawals w
         join withdrawals p on p.user_id = w.user_id and p.id <> w.id and p.created_at > now() - ${DAYS}
              and p.status not in ('failed', 'cancelled', 'rejected')
         join currencies c on c.id = p.currency_id
        where w.id = any($1::bigint[])
        group by w.id, c.code, c.sort order by c.sort, c.code`,
      [ids],
    ),
  ]);
  const holdsOf = grouped(holds);
  const depositsOf = grouped(deposits);
  const withdrawalsOf = grouped(withdrawals);
  const out = new Map<number, WithdrawalReviewFacts>();
  for (const r of own) {
    const completed = Number(r.completed_to);
    out.set(Number(r.id), {
      accountCreatedAt: iso(r.account_created_at),
      firstToAddress: completed === 0,
      completedToAddress: completed,
      addressBookSince: r.book_since === null ? null : iso(r.book_since),
      holds: (holdsOf.get(Number(r.user_id)) ?? []).map((h) => ({
        at: iso(h.at),
        reason: h.reason,
        endsAt: iso(h.ends_at),
        active: h.active === true,
      })),
      deposits30d: sums(depositsOf.get(Number(r.user_id))),
      withdrawals30d: sums(withdrawalsOf.get(Number(r.id))),
      totpEnabled: r.totp === true,
      passkeys: Number(r.passkeys),
    });
  }
  return out;
}

/**
 * Every withdrawal not yet final, oldest first: the destination in full with its explorer link,
 * the user, the network by name, amount and fee, where a four-eyes approval stands, and for
 * those in review the facts an operator decides on.
 */
export async function openWithdrawals(database: Database): Promise<OpenWithdrawal[]> {
  const rows = await database.sql.query<OpenRow>(
    `select w.id, w.user_id, u.email, w.network_id, n.name as network_name, n.explorer_url, c.code, w.address,
            w.amount::text as amount, w.fee::text as fee, w.status, w.tx_hash,
            extract(epoch from now() - w.created_at)::int as age, w.wait_reason,
            extract(epoch from now() - w.wait_since)::int as wait_age,
            w.status = 'review' and (w.first_approved_by is not null
              or (n.second_approval_above is not null and w.amount > n.second_approval_above)) as needs_second,
            w.first_approved_by_email as first_by, w.first_approved_at as first_at, w.first_approval_reason as first_reason
       from withdrawals w
       join currencies c on c.id = w.currency_id
       join networks n on n.id = w.network_id
       join users u on u.id = w.user_id
      where w.status in ('review', 'queued', 'broadcast', 'confirming') order by w.id limit ${OPEN_WITHDRAWALS_LIMIT}`,
  );
  const facts = await reviewFacts(
    database,
    rows.filter((r) => r.status === 'review').map((r) => Number(r.id)),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    userId: Number(r.user_id),
    email: r.email,
    networkId: r.network_id,
    networkName: r.network_name,
    code: r.code,
    address: r.address,
    explorerUrl: explorerLink(r.explorer_url, r.address),
    amount: trimDecimal(r.amount),
    fee: trimDecimal(r.fee),
    status: r.status,
    txHash: r.tx_hash,
    ageSeconds: Number(r.age),
    waitReason: r.wait_reason,
    waitSeconds: r.wait_age === null ? null : Number(r.wait_age),
    needsSecondOperator: r.needs_second === true,
    firstApproval:
      r.first_by === null || r.first_at === null ? null : { by: r.first_by, at: iso(r.first_at), reason: r.first_reason ?? '' },
    facts: facts.get(Number(r.id)) ?? null,
  }));
}
