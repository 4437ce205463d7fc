import { type AccountLink, ErrorCode } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import type { SessionUser } from '../../core/session.ts';
import type { Database } from '../../db/client.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';

/*
 * Accounts an operator links (the same person, one household; docs/decisions/047). A link is one
 * pair of user accounts, stored in order (user_low < user_high); transfers between the two do
 * not count towards an activity's transfers-sent metric (coffer_activity_ranking). Removing a
 * link keeps its row as history. Both writes are audited with their reason.
 */

type Operator = Pick<SessionUser, 'id' | 'email'>;

const iso = (v: Date | string) => new Date(v).toISOString();

/** The live links of a user, newest first, each naming the other account. */
export async function linksOf(database: Database, uid: number): Promise<AccountLink[]> {
  const rows = await database.sql.query<{
    id: number;
    other: number;
    email: string;
    reason: string;
    created_by: string;
    created_at: Date | string;
  }>(
    `select l.id, o.id as other, o.email, l.reason, op.email as created_by, l.created_at
       from account_links l
       join users o on o.id = case when l.user_low = $1 then l.user_high else l.user_low end
       join users op on op.id = l.created_by
      where $1 in (l.user_low, l.user_high) and l.removed_at is null
      order by l.id desc`,
    [uid],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    uid: Number(r.other),
    email: r.email,
    reason: r.reason,
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
  }));
}

/** Locks both accounts in id order: each must exist (4004) and be a user's, not an operator's (3007). */
async function lockPair(q: Query, low: number, high: number): Promise<void> {
  const rows = await q<{ id: number; role: string }>('select id, role from users where id in ($1, $2) order by id for update', [low, high]);
  if (rows.length !== 2) throw notFound();
  if (rows.some((r) => r.role !== 'user')) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
}

/**
 * Links `other` to `uid`. 3054 the same account, 3053 already linked, 3007 either is an
 * operator's account, 4004 either is unknown. Audited as `user.link` on the user the page shows.
 */
export async function linkAccounts(database: Database, operator: Operator, uid: number, other: number, reason: string) {
  if (uid === other) throw new BizError(ErrorCode.ACCOUNT_LINK_SELF);
  const [low, high] = uid < other ? [uid, other] : [other, uid];
  return inTransaction(database, async (q) => {
    await lockPair(q, low, high);
    const [live] = await q<{ id: number }>('select id from account_links where user_low = $1 and user_high = $2 and removed_at is null', [
      low,
      high,
    ]);
    if (live) throw new BizError(ErrorCode.ACCOUNTS_ALREADY_LINKED);
    const [row] = await q<{ id: number }>(
      'insert into account_links (user_low, user_high, reason, created_by) values ($1, $2, $3, $4) returning id',
      [low, high, reason, operator.id],
    );
    const id = Number(row?.id);
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'user.link',
      targetType: 'user',
      targetId: uid,
      reason,
      before: null,
      after: { link: id, users: [low, high] },
    });
    return id;
  });
}

/**
 * Removes a live link of `uid`'s. 4004 no such link on this user, 3055 already removed. Audited
 * as `user.unlink`; the row stays with who removed it, when and why.
 */
export async function unlinkAccounts(database: Database, operator: Operator, uid: number, linkId: number, reason: string) {
  await inTransaction(database, async (q) => {
    const [link] = await q<{ user_low: number; user_high: number; reason: string; removed_at: Date | string | null }>(
      'select user_low, user_high, reason, removed_at from account_links where id = $1 and $2 in (user_low, user_high) for update',
      [linkId, uid],
    );
    if (!link) throw notFound();
    if (link.removed_at !== null) throw new BizError(ErrorCode.ACCOUNT_LINK_REMOVED);
    await q('update account_links set removed_at = now(), removed_by = $2, removed_reason = $3 where id = $1', [
      linkId,
      operator.id,
      reason,
    ]);
    const users = [Number(link.user_low), Number(link.user_high)];
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'user.unlink',
      targetType: 'user',
      targetId: uid,
      reason,
      before: { link: linkId, users, reason: link.reason },
      after: null,
    });
  });
}
