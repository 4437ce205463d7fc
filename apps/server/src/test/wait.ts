import { inspect } from 'node:util';

/**
 * Waiting for an outcome instead of sleeping (docs/decisions/064-clocks-and-waits.md): a test
 * polls what it expects until it is there, up to a named limit, and a miss says what it last
 * saw. Time the code under test decides by is moved through its clock, never waited out.
 */

/** The longest a test waits for an outcome unless it names another limit: room for a loaded 2-core runner. */
export const WAIT_TIMEOUT_MS = 10_000;
/** Between two looks at the outcome. */
export const WAIT_POLL_MS = 20;

type Maybe<T> = T | false | null | undefined;

export interface WaitOptions {
  /** Give up after this long (default WAIT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Look again after this long (default WAIT_POLL_MS). */
  everyMs?: number;
}

/**
 * Polls `probe` until it answers something truthy and answers that; after `timeoutMs` throws
 * "timed out after N ms waiting for <what>; last answer: <the last value or error>".
 */
export async function waitFor<T>(probe: () => Maybe<T> | Promise<Maybe<T>>, what: string, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? WAIT_TIMEOUT_MS;
  const everyMs = opts.everyMs ?? WAIT_POLL_MS;
  const deadline = Date.now() + timeoutMs;
  let last = 'none yet';
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await probe();
      if (value) return value;
      last = inspect(value, { depth: 3, breakLength: Number.POSITIVE_INFINITY });
    } catch (err) {
      last = err instanceof Error ? `${err.name}: ${err.message}` : `thrown ${inspect(err)}`;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${timeoutMs} ms (${attempt} looks) waiting for ${what}; last answer: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
