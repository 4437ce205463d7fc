import {
  ErrorCode,
  type LoginData,
  type LoginSecondFactorBody,
  SECOND_FACTOR_CHALLENGE_SECONDS,
  type SecondFactorRequired,
  type StepUpSwapsBody,
  type TwoFactorEnableData,
  type TwoFactorSetupData,
} from '@coffer/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError } from '../../core/errors.ts';
import { requireRecentReauth } from '../../core/reauth.ts';
import { createSession, TOKEN_HEAD } from '../../core/session.ts';
import { passkeys, recoveryCodes, userTotp, users } from '../../db/schema/index.ts';
import { holdAfter } from '../holds/index.ts';
import { notifySecurityEvent, recordSignIn, recordWrongSecondFactor } from '../security/index.ts';
import { issueChallenge, liveChallenge, useChallenge } from './challenges.ts';
import { cancelReset, completeDueResets, openResetOf } from './resets.ts';
import { sealSecret } from './secret-box.ts';
import { passStepUp } from './step-up.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpFor, totpRow, twoFactorEnabled, verifySecondFactor } from './totp.ts';

/** What two-factor uses: the database, the mailer (security notices) and two settings. */
export type TwoFactorDeps = MailingDeps & { config: Pick<Config, 'PRODUCT_NAME' | 'SESSION_TTL_HOURS' | 'WITHDRAWAL_HOLD_HOURS'> };

export class TwoFactorService {
  constructor(private readonly deps: TwoFactorDeps) {}

  private get db() {
    return this.deps.database.db;
  }

  /**
   * A new secret waiting for its first code. Refused (3007) while two-factor is on: changing
   * the authenticator means disabling it first, which needs a code.
   */
  async setup(userId: number, email: string): Promise<TwoFactorSetupData> {
    const existing = await totpRow(this.deps.database, userId);
    if (existing?.enabledAt) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    const secret = newTotpSecret();
    const sealed = sealSecret(this.deps.database, userId, secret);
    await this.db
      .insert(userTotp)
      .values({ userId, secret: sealed })
      .onConflictDoUpdate({ target: userTotp.userId, set: { secret: sealed, lastStep: null, createdAt: new Date() } });
    return { secret, uri: totpFor(secret, email, this.deps.config.PRODUCT_NAME).toString() };
  }

  /**
   * The first right code turns two-factor on; answers the ten recovery codes (shown once).
   * Needs a recent re-authentication of the session (2013): a stolen session alone cannot
   * put its own authenticator in and lock the owner out.
   */
  async enable(session: { id: number; sessionId: number }, code: string): Promise<TwoFactorEnableData> {
    const userId = session.id;
    const row = await totpRow(this.deps.database, userId);
    if (!row || row.enabledAt) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    await requireRecentReauth(this.db, session.sessionId);
    await verifySecondFactor(this.deps.database, userId, code, { recovery: false, pending: true });
    const codes = newRecoveryCodes();
    await this.db.transaction(async (tx) => {
      await tx.update(userTotp).set({ enabledAt: new Date() }).where(eq(userTotp.userId, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })));
    });
    void notifySecurityEvent(this.deps, userId, 'two_factor_enabled');
    return { recoveryCodes: codes };
  }

  async disable(userId: number, code: string): Promise<void> {
    await verifySecondFactor(this.deps.database, userId, code, { recovery: true });
    await this.db.transaction(async (tx) => {
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.delete(userTotp).where(eq(userTotp.userId, userId));
      // The swap opt-in belongs to this enrolment: a new one starts without it.
      await tx.update(users).set({ stepUpSwaps: false }).where(eq(users.id, userId));
    });
    void notifySecurityEvent(this.deps, userId, 'two_factor_disabled');
    await holdAfter(this.deps, userId, 'two_factor_disabled');
    await this.closeOpenReset(userId);
  }

  /**
   * An owner who turned two-factor off themselves has nothing left for an open reset to remove;
   * left open, it would remove an authenticator enrolled afterwards. It is cancelled (audited).
   */
  private async closeOpenReset(userId: number): Promise<void> {
    if (!(await openResetOf(this.deps, userId))) return;
    const [user] = await this.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) return;
    await cancelReset(this.deps, userId, { actor: user, role: 'owner', reason: 'two-factor turned off by the owner' });
  }

  /**
   * The user's choice that swaps ask for the second factor too (decision 033). Turning it on
   * needs two-factor on (3007); turning it off needs the factor, or a stolen session would
   * simply switch the protection off first.
   */
  async setStepUpSwaps(userId: number, body: StepUpSwapsBody): Promise<void> {
    if (!(await twoFactorEnabled(this.deps.database, userId))) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
    const [user] = await this.db.select({ on: users.stepUpSwaps }).from(users).where(eq(users.id, userId)).limit(1);
    if (user?.on === body.enabled) return;
    if (!body.enabled) await passStepUp(this.deps.database, userId, body);
    await this.db.update(users).set({ stepUpSwaps: body.enabled, updatedAt: new Date() }).where(eq(users.id, userId));
  }

  /** Called by the password sign-in once the password was right: null = no second factor. */
  async secondFactorFor(userId: number): Promise<SecondFactorRequired | null> {
    // An operator-assisted reset that is due ends here at the latest (resets.ts).
    await completeDueResets(this.deps, userId);
    if (!(await twoFactorEnabled(this.deps.database, userId))) return null;
    const challenge = await issueChallenge(this.db, 'second_factor', userId, SECOND_FACTOR_CHALLENGE_SECONDS);
    const keys = await this.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
    return {
      secondFactor: {
        challenge,
        methods: keys.length > 0 ? ['totp', 'passkey'] : ['totp'],
        expiresIn: SECOND_FACTOR_CHALLENGE_SECONDS,
      },
    };
  }

  async loginSecondFactor(body: LoginSecondFactorBody, client: { userAgent?: string; ip?: string }): Promise<LoginData> {
    const challenge = await liveChallenge(this.db, 'second_factor', body.challenge);
    const userId = challenge.userId!;
    try {
      await verifySecondFactor(this.deps.database, userId, body.code, { recovery: true });
    } catch (e) {
      // The password was right: sign-in history records it as its own kind and the owner is told.
      await recordWrongSecondFactor(this.deps, userId, client);
      throw e;
    }
    return this.finishSignIn(challenge.id, userId, client);
  }

  /** Uses the challenge up and opens the session. */
  async finishSignIn(challengeId: number, userId: number, client: { userAgent?: string; ip?: string }): Promise<LoginData> {
    if (!(await useChallenge(this.db, challengeId))) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    const [user] = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    // Both ways here passed a second factor (a code, or a passkey): the operator guard needs it.
    const token = await createSession(this.db, user.id, this.deps.config.SESSION_TTL_HOURS, { ...client, secondFactor: true });
    // Sign-in history and, from a new (device, IP), a notice to the owner (modules/security).
    const { newDevice } = await recordSignIn(this.db, user.id, 'success', client);
    if (newDevice) {
      void notifySecurityEvent(this.deps, user.id, 'new_sign_in', client);
      await holdAfter(this.deps, user.id, 'new_device', client);
    }
    return { token, tokenHead: TOKEN_HEAD };
  }
}
