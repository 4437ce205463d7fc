import { ErrorCode, STEP_UP_TOKEN_SECONDS, type StepUpAction, type StepUpProof } from '@coffer/contract';
import { BizError } from '../../core/errors.ts';
import type { Db, Database } from '../../db/client.ts';
import { issueChallenge, liveChallenge, useChallenge } from './challenges.ts';
import { verifySecondFactor } from './totp.ts';

/**
 * The one step-up policy (decision 033): which actions ask for a second factor, and when.
 * With two-factor on, every action that moves value out of the account asks (a stolen session
 * alone must not empty it through an accomplice's account); swaps move nothing out, so they
 * ask only when the user opted in. The factors that satisfy it: an authenticator code, a
 * recovery code (used once), or a passkey assertion (a single-use step-up token).
 *
 * The batch writers (coffer_transfer_batch, coffer_swap_batch) apply the same rule in SQL with
 * the item's `stepped` flag, so the hot path pays no lookup; this table is what the others
 * and the documentation read.
 */
export const STEP_UP_POLICY: Record<StepUpAction, 'two_factor_on' | 'opted_in'> = {
  withdraw: 'two_factor_on',
  transfer: 'two_factor_on',
  swap: 'opted_in',
};

/** Whether `action` asks the user for a second factor now. */
export async function stepUpRequired(database: Database, userId: number, action: StepUpAction): Promise<boolean> {
  const [row] = await database.sql.query<{ two_factor: boolean; swaps: boolean }>(
    `select exists (select 1 from user_totp t where t.user_id = u.id and t.enabled_at is not null) as two_factor,
            u.step_up_swaps as swaps
       from users u where u.id = $1`,
    [userId],
  );
  if (!row?.two_factor) return false;
  return STEP_UP_POLICY[action] === 'two_factor_on' || row.swaps;
}

export const hasStepUpProof = (proof: StepUpProof) => Boolean(proof.totp || proof.stepUpToken);

/**
 * Checks the proof and uses it up: a code (2007 wrong, replayed or used), or a passkey step-up
 * token of this user (2008 unknown, used, expired or another user's); 2006 without either.
 */
export async function passStepUp(database: Database, userId: number, proof: StepUpProof): Promise<void> {
  if (proof.stepUpToken) {
    const row = await liveChallenge(database.db, 'step_up', proof.stepUpToken);
    if (row.userId !== userId) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    if (!(await useChallenge(database.db, row.id))) throw new BizError(ErrorCode.SECOND_FACTOR_EXPIRED);
    return;
  }
  if (proof.totp) {
    await verifySecondFactor(database, userId, proof.totp, { recovery: true });
    return;
  }
  throw new BizError(ErrorCode.SECOND_FACTOR_REQUIRED);
}

/** For an action that knows its user: nothing when the policy does not ask, else the proof. */
export async function requireStepUp(database: Database, userId: number, action: StepUpAction, proof: StepUpProof): Promise<void> {
  if (await stepUpRequired(database, userId, action)) await passStepUp(database, userId, proof);
}

/** The single-use token a verified passkey assertion gives (modules/passkeys). */
export function issueStepUpToken(db: Db, userId: number): Promise<string> {
  return issueChallenge(db, 'step_up', userId, STEP_UP_TOKEN_SECONDS);
}
