import { ErrorCode, type TwoFactorResetStatus } from '@coffer/contract';
import { BizError, notFound } from '../../core/errors.ts';
import { operatorOf, recordOperatorAction } from '../../core/operator-audit.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { announceRevoked, type SessionUser } from '../../core/session.ts';
import type { securityHolds } from '../../db/schema/index.ts';
import { inTransaction, type Query } from '../../db/transaction.ts';
import { type HoldDeps, mailHold } from '../holds/index.ts';
import { notifySecurityEvent } from '../security/index.ts';

/**
 * The operator-assisted two-factor reset, for an owner who lost the authenticator and the
 * recovery codes (docs/security.md, decision 035). An operator opens it with a reason; the
 * owner is mailed at once and may cancel it (signed in, in the security centre) or the operator
 * may; once TWO_FACTOR_RESET_WAIT_HOURS have passed by the database's clock it completes: the
 * authenticator and the recovery codes are removed and the owner is mailed again. Opening,
 * cancelling and completing are in the operator audit trail.
 */

/** How often each API process completes the resets that are due. */
export const RESET_SWEEP_INTERVAL_MS = 60_000;
/** The audit trail's actor of a completion: no person does it, the waiting period does. */
export const RESET_COMPLETION_ACTOR = 'system:two-factor-reset';

interface ResetRow {
  id: number | string;
  user_id: number | string;
  operator: string;
  reason: string;
  created_at: Date | string;
  completes_at: Date | string;
}

const OPEN = 'cancelled_at is null and completed_at is null';
const iso = (v: Date | string) => new Date(v).toISOString();

type HoldRow = typeof securityHolds.$inferSelect;

const toStatus = (r: ResetRow): TwoFactorResetStatus => ({
  id: Number(r.id),
  createdAt: iso(r.created_at),
  completesAt: iso(r.completes_at),
});

/** The user's open reset, as the owner sees it (completed first when it is due). */
export async function pendingReset(deps: HoldDeps, userId: number): Promise<TwoFactorResetStatus | null> {
  await completeDueResets(deps, userId);
  const row = await openResetOf(deps, userId);
  return row ? toStatus(row) : null;
}

/** The user's open reset with who opened it and why, for the console. */
export async function openResetOf(deps: MailingDeps, userId: number): Promise<ResetRow | undefined> {
  const [row] = await deps.database.sql.query<ResetRow>(
    `select id, user_id, operator, reason, created_at, completes_at from two_factor_resets where user_id = $1 and ${OPEN}`,
    [userId],
  );
  return row;
}

/**
 * Opens a reset of `uid`'s two-factor, completing after `waitHours`. 3007 when two-factor is
 * off, a reset is open already, or for an operator account (their own or another operator's).
 */
export async function openReset(
  deps: MailingDeps,
  operator: Pick<SessionUser, 'id' | 'email'>,
  uid: number,
  reason: string,
  waitHours: number,
): Promise<void> {
  await inTransaction(deps.database, async (q) => {
    const [user] = await q<{ role: string; two_factor: boolean }>(
      `select role, exists (select 1 from user_totp t where t.user_id = users.id and t.enabled_at is not null) as two_factor
         from users where id = $1 for update`,
      [uid],
    );
    if (!user) throw notFound();
    if (uid === operator.id || user.role === 'operator' || !user.two_factor) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    const [open] = await q<{ id: number }>(`select id from two_factor_resets where user_id = $1 and ${OPEN}`, [uid]);
    if (open) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    const [row] = await q<ResetRow>(
      `insert into two_factor_resets (user_id, operator_user_id, operator, reason, completes_at)
       values ($1, $2, $3, $4, now() + make_interval(hours => $5::int))
       returning id, user_id, operator, reason, created_at, completes_at`,
      [uid, operator.id, operator.email, reason, waitHours],
    );
    await recordOperatorAction(q, {
      ...operatorOf(operator),
      action: 'user.two_factor_reset.open',
      targetType: 'user',
      targetId: uid,
      reason,
      before: null,
      after: { resetId: Number(row!.id), completesAt: iso(row!.completes_at) },
    });
  });
  void notifySecurityEvent(deps, uid, 'two_factor_reset_opened');
}

/**
 * Cancels the user's open reset, by the owner (their own session) or an operator (with a
 * reason); either way it is in the audit trail. 4004 when none is open.
 */
export async function cancelReset(
  deps: HoldDeps,
  uid: number,
  by: { actor: Pick<SessionUser, 'id' | 'email'>; role: 'owner' | 'operator'; reason: string | null },
): Promise<void> {
  await completeDueResets(deps, uid);
  await inTransaction(deps.database, async (q) => {
    const [row] = await q<ResetRow>(
      `update two_factor_resets set cancelled_at = now(), cancelled_by = $2
        where user_id = $1 and ${OPEN}
        returning id, user_id, operator, reason, created_at, completes_at`,
      [uid, by.role === 'owner' ? 'owner' : by.actor.email],
    );
    if (!row) throw notFound();
    await recordOperatorAction(q, {
      ...operatorOf(by.actor),
      action: 'user.two_factor_reset.cancel',
      targetType: 'user',
      targetId: uid,
      reason: by.reason,
      before: { resetId: Number(row.id), completesAt: iso(row.completes_at) },
      after: { cancelledBy: by.role },
    });
  });
  void notifySecurityEvent(deps, uid, 'two_factor_reset_cancelled');
}

/**
 * Completes every reset whose time has come by the database's clock (of one user, or all):
 * removes the authenticator and recovery codes and mails each owner. Idempotent: two
 * processes at once complete each reset once (the update claims it).
 */
export async function completeDueResets(deps: HoldDeps, userId?: number): Promise<number> {
  const done = await inTransaction(deps.database, async (q) => {
    const rows = await q<ResetRow>(
      `update two_factor_resets set completed_at = now()
        where ${OPEN} and completes_at <= now() and ($1::bigint is null or user_id = $1)
        returning id, user_id, operator, reason, created_at, completes_at`,
      [userId ?? null],
    );
    const completed = [];
    for (const row of rows) completed.push({ row, ...(await removeSecondFactor(q, row, deps.config.WITHDRAWAL_HOLD_HOURS)) });
    return completed;
  });
  for (const { row, revoked, hold } of done) {
    announceRevoked(deps.database.db, revoked);
    void notifySecurityEvent(deps, Number(row.user_id), 'two_factor_reset_completed');
    mailHold(deps, hold);
  }
  return done.length;
}

/**
 * Removes the authenticator and recovery codes, in the completion's transaction with what must
 * come with it: every session of the account ends (one a thief held was kept out of money by
 * the second factor until now) and withdrawals wait, as after turning two-factor off.
 */
async function removeSecondFactor(q: Query, row: ResetRow, holdHours: number): Promise<{ revoked: number[]; hold: HoldRow | null }> {
  const userId = Number(row.user_id);
  await q('delete from recovery_codes where user_id = $1', [userId]);
  await q('delete from user_totp where user_id = $1', [userId]);
  await q('update users set step_up_swaps = false where id = $1', [userId]);
  const revoked = await q<{ id: number }>('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null returning id', [
    userId,
  ]);
  const [hold] =
    holdHours > 0
      ? await q<{ id: number; user_id: number; reason: HoldRow['reason']; created_at: Date; ends_at: Date }>(
          `insert into security_holds (user_id, reason, ends_at) values ($1, 'two_factor_disabled', now() + make_interval(hours => $2))
           returning id, user_id, reason, created_at, ends_at`,
          [userId, holdHours],
        )
      : [];
  await recordOperatorAction(q, {
    actorUserId: null,
    actor: RESET_COMPLETION_ACTOR,
    action: 'user.two_factor_reset.complete',
    targetType: 'user',
    targetId: Number(row.user_id),
    reason: row.reason,
    before: { resetId: Number(row.id), openedBy: row.operator, completesAt: iso(row.completes_at) },
    after: { twoFactor: false, sessionsRevoked: revoked.length },
  });
  return {
    revoked: revoked.map((r) => Number(r.id)),
    hold: hold
      ? {
          id: Number(hold.id),
          userId,
          reason: hold.reason,
          createdAt: new Date(hold.created_at),
          endsAt: new Date(hold.ends_at),
          cancelledAt: null,
        }
      : null,
  };
}
