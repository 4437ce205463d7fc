import {
  ErrorCode,
  type LoginData,
  type PasskeyItem,
  type PasskeyLoginBody,
  type PasskeyLoginOptionsBody,
  type PasskeyOptionsData,
  type PasskeyRegisterBody,
  STEP_UP_TOKEN_SECONDS,
  type StepUpTokenData,
} from '@coffer/contract';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { MailingDeps } from '../../core/deps.ts';
import { BizError, notFound } from '../../core/errors.ts';
import { markReauthenticated, requireRecentReauth } from '../../core/reauth.ts';
import { hashToken, markSecondFactor } from '../../core/session.ts';
import { authChallenges, passkeys, users } from '../../db/schema/index.ts';
import { holdAfter } from '../holds/index.ts';
import { notifySecurityEvent, recordWrongSecondFactor } from '../security/index.ts';
import {
  issueChallenge,
  issueStepUpToken,
  liveChallenge,
  requireSecondFactor,
  type TwoFactorDeps,
  TwoFactorService,
  twoFactorEnabled,
} from '../two-factor/index.ts';

/** A registration or passwordless ceremony must finish within this time. */
const CEREMONY_SECONDS = 300;
const MAX_PASSKEYS = 20;

type PasskeyRow = typeof passkeys.$inferSelect;

/** What passkeys use: two-factor's part (a passkey sign-in finishes there) and the relying party. */
export type PasskeyDeps = MailingDeps & { config: TwoFactorDeps['config'] & Pick<Config, 'webauthn'> };

const toItem = (p: PasskeyRow): PasskeyItem => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
});

const transportsOf = (p: PasskeyRow) => (p.transports ? p.transports.split(',') : undefined);

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registered while signed in, used to sign in
 * without a password, or as the second factor of a password sign-in instead of a code. User
 * verification (PIN, fingerprint) is required, so a passkey alone is two factors.
 */
export class PasskeyService {
  constructor(
    private readonly deps: PasskeyDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.deps.database.db;
  }

  private get rp() {
    return this.deps.config.webauthn;
  }

  async list(userId: number): Promise<PasskeyItem[]> {
    const rows = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
    return rows.map(toItem);
  }

  /**
   * A stolen session alone cannot add a way in. Without two-factor: a recent re-authentication
   * of this session (2013 without). With two-factor on: the second factor itself, here (2006
   * without, 2007 wrong), whatever re-authentication the session has, since a passkey passes
   * every step-up afterwards: the password alone must never buy one (decision 035).
   */
  async registrationOptions(session: { id: number; sessionId: number }, code: string | undefined): Promise<PasskeyOptionsData> {
    const userId = session.id;
    if (await twoFactorEnabled(this.deps.database, userId)) {
      await requireSecondFactor(this.deps.database, userId, code);
      await markReauthenticated(this.db, session.sessionId);
      await markSecondFactor(this.db, session.sessionId);
    }
    await requireRecentReauth(this.db, session.sessionId);
    const [user] = await this.db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new BizError(ErrorCode.NOT_SIGNED_IN);
    const existing = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    if (existing.length >= MAX_PASSKEYS) throw new BizError(ErrorCode.LIMIT_EXCEEDED);
    const options = await generateRegistrationOptions({
      rpName: this.deps.config.PRODUCT_NAME,
      rpID: this.rp.rpId,
      userName: user.email,
      userDisplayName: user.nickname,
      userID: new TextEncoder().encode(`coffer-user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const challenge = await issueChallenge(this.db, 'passkey_register', userId, CEREMONY_SECONDS, options.challenge);
    return { challenge, options: options as unknown as Record<string, unknown> };
  }

  /** The re-authentication must still be recent when the answer comes (2013). */
  async register(session: { id: number; sessionId: number }, body: PasskeyRegisterBody): Promise<PasskeyItem> {
    const userId = session.id;
    await requireRecentReauth(this.db, session.sessionId);
    const row = await this.takeChallenge('passkey_register', body.challenge);
    if (row.userId !== userId) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: row.webauthnChallenge!,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.rpId,
        requireUserVerification: true,
      });
    } catch (err) {
      this.log.info({ error: err instanceof Error ? err.message : String(err) }, 'passkey registration refused');
      throw new BizError(ErrorCode.PASSKEY_FAILED);
    }
    if (!verified.verified) throw new BizError(ErrorCode.PASSKEY_FAILED);
    const { credential } = verified.registrationInfo;
    const count = (await this.list(userId)).length;
    try {
      const [created] = await this.db
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports?.join(',') ?? null,
          name: body.name ?? `Passkey ${count + 1}`,
        })
        .returning();
      void notifySecurityEvent(this.deps, userId, 'passkey_added');
      await holdAfter(this.deps, userId, 'passkey_added');
      return toItem(created!);
    } catch {
      // The unique credential id: this authenticator is registered already.
      throw new BizError(ErrorCode.PASSKEY_FAILED);
    }
  }

  async remove(userId: number, id: number, code: string | undefined): Promise<void> {
    const [own] = await this.db
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .limit(1);
    if (!own) throw notFound();
    await requireSecondFactor(this.deps.database, userId, code);
    const gone = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning({ id: passkeys.id });
    if (gone.length === 0) throw notFound();
    void notifySecurityEvent(this.deps, userId, 'passkey_removed');
    await holdAfter(this.deps, userId, 'passkey_removed');
  }

  /**
   * Options for a passkey sign-in. With the second-factor challenge of a password sign-in:
   * that account's passkeys, and the same challenge token; without: any discoverable passkey.
   */
  async loginOptions(body: PasskeyLoginOptionsBody): Promise<PasskeyOptionsData> {
    if (body.challenge) {
      const row = await liveChallenge(this.db, 'second_factor', body.challenge);
      const keys = await this.db.select().from(passkeys).where(eq(passkeys.userId, row.userId!));
      if (keys.length === 0) throw new BizError(ErrorCode.PASSKEY_FAILED);
      const options = await generateAuthenticationOptions({
        rpID: this.rp.rpId,
        userVerification: 'required',
        allowCredentials: keys.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
      });
      await this.db.update(authChallenges).set({ webauthnChallenge: options.challenge }).where(eq(authChallenges.id, row.id));
      return { challenge: body.challenge, options: options as unknown as Record<string, unknown> };
    }
    const options = await generateAuthenticationOptions({ rpID: this.rp.rpId, userVerification: 'required' });
    const challenge = await issueChallenge(this.db, 'passkey_login', null, CEREMONY_SECONDS, options.challenge);
    return { challenge, options: options as unknown as Record<string, unknown> };
  }

  async login(body: PasskeyLoginBody, client: { userAgent?: string; ip?: string }): Promise<LoginData> {
    const [row] = await this.db
      .select()
      .from(authChallenges)
      .where(
        and(
          eq(authChallenges.tokenHash, hashToken(body.challenge)),
          inArray(authChallenges.purpose, ['passkey_login', 'second_factor']),
          isNull(authChallenges.usedAt),
          gt(authChallenges.expiresAt, new Date()),
        ),
      )
      .limit(1);
    if (!row?.webauthnChallenge) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    let key: PasskeyRow;
    try {
      // A second factor must be a passkey of the account whose password was right.
      key = await this.verifyAssertion(body.response, row.webauthnChallenge, row.userId);
    } catch (e) {
      // As a second factor the password was right: a refusal is recorded and the owner told.
      if (row.purpose === 'second_factor' && row.userId !== null) await recordWrongSecondFactor(this.deps, row.userId, client, this.log);
      throw e;
    }
    return new TwoFactorService(this.deps).finishSignIn(row.id, key.userId, client);
  }

  /**
   * Options for a passkey step-up (decision 033): a signed-in user proves a money action with
   * one of their passkeys instead of a code. 2009 when the user has none.
   */
  async stepUpOptions(userId: number): Promise<PasskeyOptionsData> {
    const keys = await this.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    if (keys.length === 0) throw new BizError(ErrorCode.PASSKEY_FAILED);
    const options = await generateAuthenticationOptions({
      rpID: this.rp.rpId,
      userVerification: 'required',
      allowCredentials: keys.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
    });
    const challenge = await issueChallenge(this.db, 'step_up_passkey', userId, CEREMONY_SECONDS, options.challenge);
    return { challenge, options: options as unknown as Record<string, unknown> };
  }

  /** A verified assertion of one of the user's passkeys answers a single-use step-up token. */
  async stepUp(userId: number, body: PasskeyLoginBody): Promise<StepUpTokenData> {
    const row = await this.takeChallenge('step_up_passkey', body.challenge);
    if (row.userId !== userId || !row.webauthnChallenge) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    await this.verifyAssertion(body.response, row.webauthnChallenge, userId);
    return { stepUpToken: await issueStepUpToken(this.db, userId), expiresIn: STEP_UP_TOKEN_SECONDS };
  }

  /**
   * Verifies an authenticator's answer to `challenge` against the stored passkey it names
   * (of `userId` when given) and moves its counter on; 2009 otherwise.
   */
  private async verifyAssertion(raw: PasskeyLoginBody['response'], challenge: string, userId: number | null): Promise<PasskeyRow> {
    const response = raw as unknown as AuthenticationResponseJSON;
    const [key] =
      typeof response.id === 'string' ? await this.db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1) : [];
    if (!key || (userId !== null && key.userId !== userId)) throw new BizError(ErrorCode.PASSKEY_FAILED);
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origins,
        expectedRPID: this.rp.rpId,
        credential: {
          id: key.credentialId,
          publicKey: Buffer.from(key.publicKey, 'base64url'),
          counter: key.counter,
          transports: transportsOf(key),
        },
        requireUserVerification: true,
      });
    } catch (err) {
      this.log.info({ error: err instanceof Error ? err.message : String(err) }, 'passkey assertion refused');
      throw new BizError(ErrorCode.PASSKEY_FAILED);
    }
    if (!verified.verified) throw new BizError(ErrorCode.PASSKEY_FAILED);
    await this.db
      .update(passkeys)
      .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(passkeys.id, key.id));
    return key;
  }

  /** The live challenge of `purpose`, used up now (one answer per ceremony). */
  private async takeChallenge(purpose: 'passkey_register' | 'step_up_passkey', token: string) {
    const row = await liveChallenge(this.db, purpose, token);
    const used = await this.db
      .update(authChallenges)
      .set({ usedAt: new Date() })
      .where(and(eq(authChallenges.id, row.id), isNull(authChallenges.usedAt)))
      .returning({ id: authChallenges.id });
    if (used.length === 0) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    return row;
  }
}
