import { type AdminUserDetail, type AdminUserPage, type AdminUserSummary, ErrorCode, USER_RECENT_POSTINGS } from '@coffer/contract';
import { trimDecimal } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import { announceRevoked, type SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { HoldDeps } from '../holds/index.ts';
import { completeDueResets, openResetOf } from '../two-factor/index.ts';
import { likeEscape } from './audit-trail.ts';
import { linksOf } from './account-links.ts';
import { securityEvents } from './support.ts';

interface UserRow {
  id: number;
  email: string;
  nickname: string;
  role: 'user' | 'operator';
  created_at: Date | string;
  disabled_at: Date | string | null;
}

const USER_COLUMNS = 'id, email, nickname, role, created_at, disabled_at';
const iso = (v: Date | string) => new Date(v).toISOString();

const toSummary = (r: UserRow): AdminUserSummary => ({
  uid: Number(r.id),
  email: r.email,
  nickname: r.nickname,
  role: r.role === 'operator' ? 'operator' : 'user',
  createdAt: iso(r.created_at),
  disabled: r.disabled_at !== null,
});

/** A search of only digits may be a uid (and is matched in e-mails too). */
const UID_RE = /^[1-9]\d{0,15}$/;

/** Users by e-mail substring (wildcards taken literally) or exact uid, newest first. */
export async function searchUsers(
  database: Database,
  q: { q?: string | undefined; page: number; pageSize: number },
): Promise<AdminUserPage> {
  const text = q.q?.trim() ?? '';
  const uid = UID_RE.test(text) ? Number(text) : null;
  const where = `where $1 = '' or email ilike '%' || $2 || '%' or id = $3::bigint`;
  const params = [text, likeEscape(text.toLowerCase()), uid];
  const [count] = await database.sql.query<{ total: number }>(`select count(*)::int as total from users ${where}`, params);
  const rows = await database.sql.query<UserRow>(
    `select ${USER_COLUMNS} from users ${where} order by id desc limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`,
    params,
  );
  return { list: rows.map(toSummary), total: count?.total ?? 0, page: q.page, pageSize: q.pageSize };
}

/** One user as the console shows it; 4004 for an unknown uid. A two-factor reset that is due completes first. */
export async function userDetail(deps: HoldDeps, uid: number): Promise<AdminUserDetail> {
  const { database } = deps;
  await completeDueResets(deps, uid);
  const reset = await openResetOf(deps, uid);
  const [user] = await database.sql.query<
    UserRow & { language: string | null; disabled_reason: string | null; two_factor: boolean; sessions: number }
  >(
    `select ${USER_COLUMNS}, language, disabled_reason,
            exists (select 1 from user_totp t where t.user_id = users.id and t.enabled_at is not null) as two_factor,
            (select count(*)::int from sessions s
              where s.user_id = users.id and s.revoked_at is null and s.expires_at > now()) as sessions
       from users where id = $1`,
    [uid],
  );
  if (!user) throw notFound();
  const balances = await database.sql.query<{ currency_id: number; code: string; available: string; frozen: string }>(
    `select c.id as currency_id, c.code,
            coalesce(sum(a.balance) filter (where a.kind = 'available'), 0)::text as available,
            coalesce(sum(a.balance) filter (where a.kind = 'frozen'), 0)::text as frozen
       from accounts a join currencies c on c.id = a.currency_id
      where a.user_id = $1 group by c.id, c.code, c.sort order by c.sort, c.id`,
    [uid],
  );
  const postings = await database.sql.query<{
    entry_id: number;
    kind: string;
    currency_id: number;
    code: string;
    account: 'available' | 'frozen';
    amount: string;
    balance_after: string;
    created_at: Date | string;
  }>(
    `select p.entry_id, e.kind, p.currency_id, c.code, a.kind as account, p.amount::text as amount,
            p.balance_after::text as balance_after, p.created_at
       from postings p
       join accounts a on a.id = p.account_id
       join journal_entries e on e.id = p.entry_id
       join currencies c on c.id = p.currency_id
      where a.user_id = $1
      order by p.id desc limit ${USER_RECENT_POSTINGS}`,
    [uid],
  );
  return {
    ...toSummary(user),
    language: user.language,
    disabledAt: user.disabled_at === null ? null : iso(user.disabled_at),
    disabledReason: user.disabled_reason,
    twoFactor: user.two_factor === true,
    twoFactorReset: reset
      ? { createdAt: iso(reset.created_at), completesAt: iso(reset.completes_at), operator: reset.operator, reason: reset.reason }
      : null,
    activeSessions: Number(user.sessions),
    balances: balances.map((b) => ({
      currencyId: b.currency_id,
      code: b.code,
      available: trimDecimal(b.available),
      frozen: trimDecimal(b.frozen),
    })),
    postings: postings.map((p) => ({
      entryId: Number(p.entry_id),
      kind: p.kind,
      currencyId: p.currency_id,
      code: p.code,
      account: p.account,
      amount: trimDecimal(p.amount),
      balanceAfter: trimDecimal(p.balance_after),
      createdAt: iso(p.created_at),
    })),
    securityEvents: await securityEvents(database, uid),
    links: await linksOf(database, uid),
  };
}

/**
 * Disables or enables a user's sign-in. Disabling also revokes every live session of the user
 * (in the same transaction as the flag and its audit-trail row), so nothing they hold works a
 * moment later; long-lived answers (the event stream) of this process end at once. An
 * operator can change neither themselves nor another operator (3007); already so is 3007 too.
 */
export async function setUserDisabled(
  deps: HoldDeps,
  operator: Pick<SessionUser, 'id' | 'email'>,
  uid: number,
  disable: boolean,
  reason: string,
): Promise<AdminUserDetail> {
  const { database } = deps;
  const revoked = await inTransaction(database, async (q) => {
    const [user] = await q<{ role: string; disabled_at: Date | string | null; disabled_reason: string | null }>(
      'select role, disabled_at, disabled_reason from users where id = $1 for update',
      [uid],
    );
    if (!user) throw notFound();
    if (uid === operator.id || user.role === 'operator') throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    if ((user.disabled_at !== null) === disable) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    const [after] = await q<{ disabled_at: Date | string | null }>(
      `update users set disabled_at = case when $2 then now() end, disabled_reason = case when $2 then $3 end,
              updated_at = now()
        where id = $1 returning disabled_at`,
      [uid, disable, reason],
    );
    const sessions = disable
      ? await q<{ id: number }>('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null returning id', [uid])
      : [];
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: disable ? 'user.disable' : 'user.enable',
      targetType: 'user',
      targetId: uid,
      reason,
      before: { disabled: user.disabled_at !== null, disabledAt: user.disabled_at && iso(user.disabled_at), reason: user.disabled_reason },
      after: {
        disabled: disable,
        disabledAt: after?.disabled_at ? iso(after.disabled_at) : null,
        reason: disable ? reason : null,
        sessionsRevoked: sessions.length,
      },
    });
    return sessions.map((s) => Number(s.id));
  });
  announceRevoked(database.db, revoked);
  return userDetail(deps, uid);
}
