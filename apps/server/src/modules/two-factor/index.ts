/**
 * What other modules may use from two-factor: the sign-in paths (auth, passkeys) ask
 * TwoFactorService for the second step and finish it; twoFactorEnabled tells whether a user
 * has it on; requireSecondFactor checks a code where an action needs one (passkey changes,
 * withdrawals: 2006 without, 2007 wrong); the step-up policy (step-up.ts) says which money
 * actions ask for a second factor and checks one (code or passkey token); passkeys reuse the challenge store
 * (issueChallenge, liveChallenge). loadTwoFactorKey reads or creates the key that seals the
 * secrets, for a process that starts the others (cluster). The operator console opens and
 * cancels two-factor resets (resets.ts) and shows the open one.
 */
export { issueChallenge, liveChallenge } from './challenges.ts';
export { loadTwoFactorKey } from './secret-box.ts';
export { TwoFactorService, type TwoFactorDeps } from './service.ts';
export { requireSecondFactor, twoFactorEnabled } from './totp.ts';
export { hasStepUpProof, issueStepUpToken, passStepUp, requireStepUp, STEP_UP_POLICY, stepUpRequired } from './step-up.ts';
export { cancelReset, completeDueResets, openReset, openResetOf, pendingReset } from './resets.ts';
