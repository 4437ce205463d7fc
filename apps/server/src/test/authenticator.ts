import { ErrorCode, TOTP_PERIOD_SECONDS } from '@coffer/contract';
import type { Clock } from '../core/clock.ts';
import { totpFor } from '../modules/two-factor/totp.ts';

/**
 * Authenticator codes for tests. The server accepts a code of one step (30 s) either side of its
 * own now, each step once (modules/two-factor/totp.ts): a test that needs three codes in a row
 * takes the previous, the current and the next step's.
 */
const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
/**
 * Sends again at most this often: a step boundary passes at most once in the milliseconds one
 * request takes, so a second resend would hide a real refusal.
 */
export const BOUNDARY_RESENDS = 1;

const stepAt = (now: number) => Math.floor(now / STEP_MS);

/** The code of `secret` for the step `offset` steps from `now`. */
export const authenticatorCode = (secret: string, offset = 0, now = Date.now()) =>
  totpFor(secret, 'x').generate({ timestamp: now + offset * STEP_MS });

/**
 * Sends the previous step's code (the first of a test's three, so the current and next stay
 * free) and answers what the server said and the code it accepted or refused. A previous step's
 * code that is on the wire while a step boundary passes arrives two steps back and is refused
 * (2007): a run failed so on CI. Then, and only then, it sends the new previous step's code.
 */
export async function sendPreviousCode<T extends { code: number }>(
  secret: string,
  send: (code: string) => Promise<T>,
  clock: Clock = Date.now,
): Promise<{ answer: T; sent: string }> {
  for (let resends = 0; ; resends++) {
    const sentAt = clock();
    const sent = authenticatorCode(secret, -1, sentAt);
    const answer = await send(sent);
    const boundaryPassed = stepAt(clock()) !== stepAt(sentAt);
    if (answer.code !== ErrorCode.WRONG_SECOND_FACTOR || !boundaryPassed || resends === BOUNDARY_RESENDS) return { answer, sent };
  }
}
