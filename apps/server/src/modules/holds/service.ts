import type { HoldReason, SecurityHold, SecurityHoldData } from '@coffer/contract';
import { ErrorCode } from '@coffer/contract';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { BizError, type LocalizedDetail, notFound } from '../../core/errors.ts';
import type { Database, Db } from '../../db/client.ts';
import { securityHolds } from '../../db/schema/index.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { notifySecurityEvent, type SecurityEventClient } from '../security/index.ts';

export interface HoldDeps {
  database: Database;
  mailer: Mailer;
  config: { WITHDRAWAL_HOLD_HOURS: number };
}

type HoldRow = typeof securityHolds.$inferSelect;

/**
 * Opens a withdrawal hold of the configured period (none when WITHDRAWAL_HOLD_HOURS is 0).
 * `db` may be the transaction that makes the credential change, so both commit together;
 * mail the owner with mailHold once it has committed.
 */
export async function openHold(db: Db, userId: number, reason: HoldReason, periodHours: number): Promise<HoldRow | null> {
  if (periodHours <= 0) return null;
  const [row] = await db
    .insert(securityHolds)
    .values({ userId, reason, endsAt: sql`now() + make_interval(hours => ${periodHours})` })
    .returning();
  return row ?? null;
}

/** Tells the owner that withdrawals wait, why and until when (never throws). */
export function mailHold(deps: HoldDeps, hold: HoldRow | null, client: SecurityEventClient = {}): void {
  if (!hold) return;
  void notifySecurityEvent(deps, hold.userId, 'withdrawal_hold', client, undefined, {
    hold: { reason: hold.reason, endsAt: hold.endsAt },
  });
}

/** Opens the hold and mails the owner: for changes that are not inside a transaction of their own. */
export async function holdAfter(deps: HoldDeps, userId: number, reason: HoldReason, client: SecurityEventClient = {}) {
  mailHold(deps, await openHold(deps.database.db, userId, reason, deps.config.WITHDRAWAL_HOLD_HOURS), client);
}

/** The user's active hold that ends last (not cancelled, not over), or null. */
export async function activeHold(database: Database, userId: number): Promise<SecurityHold | null> {
  const [row] = await database.db
    .select({
      id: securityHolds.id,
      reason: securityHolds.reason,
      createdAt: securityHolds.createdAt,
      endsAt: securityHolds.endsAt,
      secondsLeft: sql<number>`ceil(extract(epoch from ${securityHolds.endsAt} - now()))::int`,
    })
    .from(securityHolds)
    .where(and(eq(securityHolds.userId, userId), isNull(securityHolds.cancelledAt), gt(securityHolds.endsAt, sql`now()`)))
    .orderBy(desc(securityHolds.endsAt))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    reason: row.reason,
    createdAt: new Date(row.createdAt).toISOString(),
    endsAt: new Date(row.endsAt).toISOString(),
    secondsLeft: Math.max(0, Number(row.secondsLeft)),
  };
}

/**
 * The user's second factor as the hold needs it. Passed in by the routes (modules/two-factor
 * opens holds itself, so this module does not import it).
 */
export interface SecondFactorCheck {
  /** Whether the user has a second factor at all. */
  enabled(): Promise<boolean>;
  /** Throws 2006 without a code, 2007 for a wrong or used one. */
  verify(): Promise<void>;
}

export async function holdState(database: Database, userId: number, second: SecondFactorCheck): Promise<SecurityHoldData> {
  const hold = await activeHold(database, userId);
  return { hold, canCancel: hold !== null && (await second.enabled()) };
}

/**
 * Ends the user's holds early. Only with the second factor: a thief who reset the password
 * by e-mail has no authenticator, and a user without one waits the hold out (3007).
 * `id` must be one of the user's active holds (4004 otherwise); all active ones end, since
 * the same proof answers for each.
 */
export async function cancelHold(database: Database, userId: number, id: number, second: SecondFactorCheck): Promise<SecurityHoldData> {
  const [own] = await database.db
    .select({ id: securityHolds.id })
    .from(securityHolds)
    .where(
      and(
        eq(securityHolds.id, id),
        eq(securityHolds.userId, userId),
        isNull(securityHolds.cancelledAt),
        gt(securityHolds.endsAt, sql`now()`),
      ),
    )
    .limit(1);
  if (!own) throw notFound();
  if (!(await second.enabled())) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
  await second.verify();
  await database.db
    .update(securityHolds)
    .set({ cancelledAt: sql`now()` })
    .where(and(eq(securityHolds.userId, userId), isNull(securityHolds.cancelledAt), gt(securityHolds.endsAt, sql`now()`)));
  return holdState(database, userId, second);
}

/** "23 h 5 min" in each language; at least a minute. */
export function timeLeft(seconds: number): LocalizedDetail {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return {
    'zh-CN': `${h ? `${h} 小时 ` : ''}${m ? `${m} 分钟` : ''}`.trim(),
    'en-US': `${h ? `${h} h ` : ''}${m ? `${m} min` : ''}`.trim(),
  };
}

const REASON_SAID: Record<HoldReason, LocalizedDetail> = {
  password_reset: { 'zh-CN': '登录密码已重置', 'en-US': 'password reset' },
  password_changed: { 'zh-CN': '登录密码已修改', 'en-US': 'password changed' },
  two_factor_disabled: { 'zh-CN': '两步验证已关闭', 'en-US': 'two-step verification turned off' },
  passkey_added: { 'zh-CN': '添加了通行密钥', 'en-US': 'passkey added' },
  passkey_removed: { 'zh-CN': '删除了通行密钥', 'en-US': 'passkey removed' },
  new_device: { 'zh-CN': '新设备登录', 'en-US': 'sign-in from a new device' },
};

/** 3014 with the time left and the reason while a hold is active (withdrawal applies). */
export async function assertNoHold(database: Database, userId: number): Promise<void> {
  const hold = await activeHold(database, userId);
  if (!hold) return;
  const left = timeLeft(hold.secondsLeft);
  const why = REASON_SAID[hold.reason];
  throw new BizError(ErrorCode.WITHDRAWAL_HOLD, {
    'zh-CN': `剩余 ${left['zh-CN']}（原因：${why['zh-CN']}）`,
    'en-US': `${left['en-US']} left (reason: ${why['en-US']})`,
  });
}
