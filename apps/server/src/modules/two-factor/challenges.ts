import { ErrorCode } from '@coffer/contract';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { BizError } from '../../core/errors.ts';
import { hashToken, newToken } from '../../core/session.ts';
import type { Db } from '../../db/client.ts';
import { authChallenges } from '../../db/schema/index.ts';

export type ChallengePurpose = 'second_factor' | 'passkey_register' | 'passkey_login' | 'step_up_passkey' | 'step_up';

/** Stores a challenge (only its hash) and answers the token handed to the client. */
export async function issueChallenge(
  db: Db,
  purpose: ChallengePurpose,
  userId: number | null,
  ttlSeconds: number,
  webauthnChallenge?: string,
): Promise<string> {
  const token = newToken();
  await db.insert(authChallenges).values({
    tokenHash: hashToken(token),
    purpose,
    userId,
    webauthnChallenge: webauthnChallenge ?? null,
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/** A live (unused, unexpired) challenge of `purpose`, or 2008. */
export async function liveChallenge(db: Db, purpose: ChallengePurpose, token: string) {
  const [row] = await db
    .select()
    .from(authChallenges)
    .where(
      and(
        eq(authChallenges.tokenHash, hashToken(token)),
        eq(authChallenges.purpose, purpose),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, new Date()),
      ),
    )
    .limit(1);
  if (!row) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
  return row;
}

/** Uses the challenge up; false when another request did first. */
export async function useChallenge(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)))
    .returning({ id: authChallenges.id });
  return rows.length === 1;
}
