import {
  ErrorCode,
  type LoginData,
  type LoginSecondFactorBody,
  SECOND_FACTOR_CHALLENGE_SECONDS,
  type SecondFactorRequired,
  type TwoFactorEnableData,
  type TwoFactorSetupData,
} from '@coffer/contract';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError } from '../../core/errors.ts';
import { createSession, TOKEN_HEAD } from '../../core/session.ts';
import { passkeys, recoveryCodes, userTotp, users } from '../../db/schema/index.ts';
import { holdAfter } from '../holds/index.ts';
import { notifySecurityEvent, recordSignIn } from '../security/index.ts';
import { issueChallenge, liveChallenge, useChallenge } from './challenges.ts';
import { sealSecret } from './secret-box.ts';
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

  /** The first right code turns two-factor on; answers the ten recovery codes (shown once). */
  async enable(userId: number, code: string): Promise<TwoFactorEnableData> {
    const row = await totpRow(this.deps.database, userId);
    if (!row || row.enabledAt) throw new BizError(ErrorCode.NOT_ALLOWED_IN_STATE);
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
    });
    void notifySecurityEvent(this.deps, userId, 'two_factor_disabled');
    await holdAfter(this.deps, userId, 'two_factor_disabled');
  }

  /** Called by the password sign-in once the password was right: null = no second factor. */
  async secondFactorFor(userId: number): Promise<SecondFactorRequired | null> {
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
      await recordSignIn(this.db, userId, false, client); // sign-in history (modules/security)
      throw e;
    }
    return this.finishSignIn(challenge.id, userId, client);
  }

  /** Uses the challenge up and opens the session. */
  async finishSignIn(challengeId: number, userId: number, client: { userAgent?: string; ip?: string }): Promise<LoginData> {
    if (!(await useChallenge(this.db, challengeId))) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    const [user] = await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    const token = await createSession(this.db, user.id, this.deps.config.SESSION_TTL_HOURS, client);
    // Sign-in history and, from a new (device, IP), a notice to the owner (modules/security).
    const { newDevice } = await recordSignIn(this.db, user.id, true, client);
    if (newDevice) {
      void notifySecurityEvent(this.deps, user.id, 'new_sign_in', client);
      await holdAfter(this.deps, user.id, 'new_device', client);
    }
    return { token, tokenHead: TOKEN_HEAD };
  }
}
