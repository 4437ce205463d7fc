import * as OTPAuth from 'otpauth';

/**
 * The authenticator app of the tests: the same RFC 6238 library as the server, which accepts a
 * code of one 30 s step either side of its own now, each step once.
 */
export const STEP_MS = 30_000;
/** A step boundary passes at most once while one request is on the wire. */
const BOUNDARY_RESENDS = 1;

export const stepAt = (now: number) => Math.floor(now / STEP_MS);

/** The code of `secret` for the step `offsetSteps` from now. */
export function codeFor(secret: string, offsetSteps = 0, now = Date.now()): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: now + offsetSteps * STEP_MS });
}

/**
 * Sends the previous step's code with `send` (which throws on a refusal), so the current and
 * the next step's stay free for the test; answers the code sent. A previous step's code on the
 * wire while a step boundary passes arrives two steps back and is refused (a server test's run
 * on CI failed so): then, and only then, it sends the new previous step's code.
 */
export async function sendPreviousCode(secret: string, send: (code: string) => Promise<unknown>): Promise<string> {
  for (let resends = 0; ; resends++) {
    const sentAt = Date.now();
    const code = codeFor(secret, -1, sentAt);
    try {
      await send(code);
      return code;
    } catch (refused) {
      if (stepAt(Date.now()) === stepAt(sentAt) || resends === BOUNDARY_RESENDS) throw refused;
    }
  }
}
