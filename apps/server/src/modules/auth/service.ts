import {
  type CurrentUser,
  DEFAULT_LOCALE,
  ErrorCode,
  type Locale,
  type LoginAnswer,
  type LoginBody,
  type LoginData,
  NICKNAME_MAX,
  RESET_REMOVES_PASSKEYS_DAYS,
  type RegisterBody,
  type ResetPasswordBody,
  type SendMailQuery,
  type UpdateUserInfoBody,
} from '@coffer/contract';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError, invalid } from '../../core/errors.ts';
import { bootstrapAdmin } from '../operators/index.ts';
import { announceRevoked, assertSignInAllowed, createSession, type SessionUser, TOKEN_HEAD } from '../../core/session.ts';
import { passkeys, sessions, users } from '../../db/schema/index.ts';
import { sqlState } from '../../ledger/sql-errors.ts';
import {
  assertCodesAllowed,
  CODE_GUESS_CAP,
  type CodeGuessCapReached,
  checkEmailCode,
  codeLocale,
  consumeEmailCode,
  issueEmailCode,
  withdrawEmailCode,
} from './email-codes.ts';
import { holdAfter, mailHold, openHold } from '../holds/index.ts';
import { notifySecurityEvent, recordSignIn } from '../security/index.ts';
import { type TwoFactorDeps, TwoFactorService, twoFactorEnabled } from '../two-factor/index.ts';
import { slowDownLogin } from './login-limits.ts';
import { codeGuessAlertMail, codeMail } from './mail-templates.ts';
import { assertAcceptablePassword, burnPasswordCheck, hashPassword, verifyPassword } from './passwords.ts';

export interface ClientInfo {
  locale: Locale;
  ip: string;
  userAgent?: string;
}

/** What sign-up and sign-in use: two-factor's part (a sign-in may need it) and who is an operator, the login throttle. */
export type AuthDeps = MailingDeps & { config: TwoFactorDeps['config'] & Pick<Config, 'OPERATOR_EMAILS' | 'RATE_LIMIT'> };

const UNIQUE_VIOLATION = '23505';

function resendTooSoon(locale: Locale, retryAfterMs: number): BizError {
  const seconds = Math.ceil(retryAfterMs / 1000);
  const detail =
    locale === 'zh-CN'
      ? `验证码已发送到该邮箱，请 ${seconds} 秒后再重新获取`
      : `a code was just sent to this address; you can ask for a new one in ${seconds} s`;
  return new BizError(ErrorCode.TOO_MANY_REQUESTS, detail);
}

type UserRow = typeof users.$inferSelect;

function toCurrentUser(u: UserRow, twoFactor: boolean): CurrentUser {
  return {
    uid: u.id,
    email: u.email,
    nickname: u.nickname,
    avatar: u.avatar,
    language: u.language,
    role: u.role === 'operator' ? 'operator' : 'user',
    twoFactor,
    stepUpSwaps: twoFactor && u.stepUpSwaps,
    createdAt: u.createdAt.toISOString(),
  };
}

export class AuthService {
  constructor(
    private readonly deps: AuthDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  private async findUser(email: string) {
    const [user] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return user;
  }

  /** `signedIn` resolves the caller's session (2001 without one); only withdraw codes need it. */
  async sendMail(query: SendMailQuery, client: ClientInfo, signedIn: () => Promise<SessionUser>): Promise<void> {
    const { email, type } = query;
    if (type === 'withdraw') {
      const me = await signedIn();
      if (me.email !== email) throw invalid('email');
    }
    const user = await this.findUser(email);
    if (type === 'register' && user) throw new BizError(ErrorCode.EMAIL_TAKEN);
    // No new code while wrong ones are capped (counted alike with or without an account).
    await assertCodesAllowed(this.db, email, type);

    // For reset the code is stored (and the minute rule applied) whether or not the address
    // has an account, so neither the answer nor a second quick request tells them apart.
    const issued = await issueEmailCode(this.db, email, type, client.locale);
    if (!issued.issued) throw resendTooSoon(client.locale, issued.retryAfterMs);
    const mail = { to: email, ...codeMail(client.locale, type, issued.code) };

    if (type === 'reset') {
      // Answer before the SMTP round trip in both cases, so timing does not tell either.
      if (user) {
        this.deps.mailer.send(mail).catch((err: unknown) => this.log.error({ err }, 'reset code mail failed'));
      }
      return;
    }
    try {
      await this.deps.mailer.send(mail);
    } catch (err) {
      await withdrawEmailCode(this.db, issued.id);
      throw err;
    }
  }

  /** Creates the account and signs it in: a fresh sign-up lands in the app, not on /login. */
  async register(body: RegisterBody, client: ClientInfo): Promise<LoginData> {
    assertAcceptablePassword(body.password, client.locale);
    const codeId = await checkEmailCode(this.db, body.email, 'register', body.code);
    // Hash outside the transaction: on PGlite a transaction holds the only connection.
    const passwordHash = await hashPassword(body.password);
    const { config } = this.deps;
    try {
      const token = await this.db.transaction(async (tx) => {
        await consumeEmailCode(tx, codeId);
        const [user] = await tx
          .insert(users)
          .values({
            email: body.email,
            passwordHash,
            nickname: body.nickname ?? body.email.split('@')[0]!.slice(0, NICKNAME_MAX),
            language: client.locale,
          })
          .returning({ id: users.id });
        await recordSignIn(tx, user!.id, 'success', client);
        return createSession(tx, user!.id, config.SESSION_TTL_HOURS, client);
      });
      // OPERATOR_EMAILS bootstraps the first admin only (decision 045): nothing once one exists.
      if (config.OPERATOR_EMAILS.includes(body.email)) await bootstrapAdmin(this.deps.database, [body.email], this.log);
      return { token, tokenHead: TOKEN_HEAD };
    } catch (e) {
      // Two sign-ups for one address at once: the unique key decides, the loser hears 2003.
      if (sqlState(e) === UNIQUE_VIOLATION) throw new BizError(ErrorCode.EMAIL_TAKEN);
      throw e;
    }
  }

  /** With two-factor on, a right password answers a challenge for /api/login/2fa instead of a session. */
  async login(body: LoginBody, client: ClientInfo): Promise<LoginAnswer> {
    // Unknown addresses are slowed down alike, so the delay does not tell accounts apart.
    const succeeded = this.deps.config.RATE_LIMIT ? await slowDownLogin(this.deps.database.sql, body.email) : undefined;
    const user = await this.findUser(body.email);
    if (!user) {
      await burnPasswordCheck(body.password);
      throw new BizError(ErrorCode.WRONG_CREDENTIALS);
    }
    if (!(await verifyPassword(user.passwordHash, body.password))) {
      await recordSignIn(this.db, user.id, 'password_wrong', client);
      throw new BizError(ErrorCode.WRONG_CREDENTIALS);
    }
    await succeeded?.();
    // A disabled account hears 2010 before any second-factor challenge is issued.
    await assertSignInAllowed(this.db, user.id);
    const second = await new TwoFactorService(this.deps).secondFactorFor(user.id);
    if (second) return second;
    const token = await createSession(this.db, user.id, this.deps.config.SESSION_TTL_HOURS, client);
    // Sign-in history and, from a new (device, IP), a notice to the owner (modules/security).
    const { newDevice } = await recordSignIn(this.db, user.id, 'success', client);
    if (newDevice) {
      void notifySecurityEvent(this.deps, user.id, 'new_sign_in', client, this.log);
      // A stolen password used from elsewhere: withdrawals wait (docs/security.md).
      await holdAfter(this.deps, user.id, 'new_device', client);
    }
    return { token, tokenHead: TOKEN_HEAD };
  }

  async currentUser(userId: number): Promise<CurrentUser> {
    const [user] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new BizError(ErrorCode.NOT_SIGNED_IN);
    return toCurrentUser(user, await twoFactorEnabled(this.deps.database, user.id));
  }

  async updateUserInfo(userId: number, body: UpdateUserInfoBody): Promise<CurrentUser> {
    const [user] = await this.db
      .update(users)
      .set({
        ...(body.nickname !== undefined && { nickname: body.nickname }),
        ...(body.avatar !== undefined && { avatar: body.avatar }),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new BizError(ErrorCode.NOT_SIGNED_IN);
    return toCurrentUser(user, await twoFactorEnabled(this.deps.database, user.id));
  }

  /** Unknown address and wrong code answer the same 2004: a reset never reveals an account. */
  async resetPassword(body: ResetPasswordBody, locale: Locale, client: Partial<ClientInfo> = {}): Promise<void> {
    assertAcceptablePassword(body.password, locale);
    const codeId = await checkEmailCode(this.db, body.email, 'reset', body.code);
    const user = await this.findUser(body.email);
    if (!user) throw new BizError(ErrorCode.WRONG_EMAIL_CODE);
    const passwordHash = await hashPassword(body.password);
    // New password and the end of every old session belong together: a reset after a
    // stolen password must also throw the thief out, and (unless the owner unticked it) the
    // passkeys added lately, which a thief holding a session could have added.
    const { revoked, removedPasskeys, hold } = await this.db.transaction(async (tx) => {
      await consumeEmailCode(tx, codeId);
      const now = new Date();
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      // Whoever reset it by e-mail waits before money can leave (docs/security.md).
      const hold = await openHold(tx, user.id, 'password_reset', this.deps.config.WITHDRAWAL_HOLD_HOURS);
      if (!body.removeRecentPasskeys) return { revoked: ended, removedPasskeys: 0, hold };
      const gone = await tx
        .delete(passkeys)
        .where(
          and(eq(passkeys.userId, user.id), gt(passkeys.createdAt, sql`now() - make_interval(days => ${RESET_REMOVES_PASSKEYS_DAYS})`)),
        )
        .returning({ id: passkeys.id });
      return { revoked: ended, removedPasskeys: gone.length, hold };
    });
    // Their open event streams end now, not at their next heartbeat.
    announceRevoked(
      this.db,
      revoked.map((r) => r.id),
    );
    void notifySecurityEvent(this.deps, user.id, 'password_reset', client, this.log);
    if (removedPasskeys > 0) void notifySecurityEvent(this.deps, user.id, 'passkey_removed', client, this.log);
    mailHold(this.deps, hold, client);
  }

  /**
   * Tells the owner once that wrong codes for `purpose` reached the cap: in the account's
   * language, else in the one the code was mailed in. Reset codes of addresses without an
   * account were never mailed, so nobody is told about them either.
   */
  async alertCodeGuessCap({ email, purpose }: CodeGuessCapReached): Promise<void> {
    const user = await this.findUser(email);
    if (!user && purpose !== 'register') return;
    const language = user?.language;
    const locale: Locale =
      language === 'zh-CN' || language === 'en-US' ? language : ((await codeLocale(this.db, email, purpose)) ?? DEFAULT_LOCALE);
    await this.deps.mailer.send({ to: email, ...codeGuessAlertMail(locale, purpose, email, CODE_GUESS_CAP.max) });
  }

  async logout(sessionId: number): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
    announceRevoked(this.db, [sessionId]);
  }
}
