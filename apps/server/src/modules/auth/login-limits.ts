import type { SqlClient } from '../../db/client.ts';
import { hitRateLimit, refundRateLimit } from '../../core/rate-limits.ts';

/**
 * The sign-in limits (all kept in the database, core/rate-limits.ts; RATE_LIMIT=off turns
 * them off for load tests). None of them lets someone without the password lock the owner
 * out: the strict ones are per IP and per (address, IP), and per address the server only
 * slows down, with a delay that stops growing.
 */

/** Per client IP (IPv6 by /64), any address: HTTP 429 beyond it. */
export const LOGIN_PER_IP = { max: 30, windowMs: 60_000 } as const;

/** Per (address, client IP): HTTP 429 beyond it, even with the right password. */
export const LOGIN_PER_ADDRESS_AND_IP = { max: 10, windowMs: 15 * 60_000 } as const;

/** The key of that count: /api/login and a re-authentication's password (reauth.ts) share it. */
export const loginPerAddressAndIpKey = (email: string, ip: string) => `login:${email}|${ip}`;

/**
 * Per address, from any IP: the first `freeAttempts` failed or pending attempts in the window
 * cost nothing; then each attempt waits baseMs, doubling, at most maxMs, before the password
 * is checked. A successful sign-in does not count.
 */
export const LOGIN_SLOWDOWN = { freeAttempts: 5, baseMs: 250, maxMs: 4_000, windowMs: 15 * 60_000 } as const;

/** The wait before the n-th attempt (1-based) on one address within the window. */
export function loginDelayMs(attempt: number): number {
  const over = attempt - LOGIN_SLOWDOWN.freeAttempts;
  if (over <= 0) return 0;
  return Math.min(LOGIN_SLOWDOWN.maxMs, LOGIN_SLOWDOWN.baseMs * 2 ** Math.min(over - 1, 20));
}

const slowdownKey = (email: string) => `login-slowdown:${email}`;

/**
 * Counts an attempt on `email` before its password is checked and waits the delay its number
 * earns. Counting first (one atomic statement) means parallel attempts get growing numbers,
 * so a burst is slowed down as much as a sequence. Answers a function that takes the attempt
 * back when the password was right.
 */
export async function slowDownLogin(sql: SqlClient, email: string): Promise<() => Promise<void>> {
  const hit = await hitRateLimit(sql, slowdownKey(email), LOGIN_SLOWDOWN.windowMs);
  const delay = loginDelayMs(hit.count);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  return () => refundRateLimit(sql, slowdownKey(email), LOGIN_SLOWDOWN.windowMs);
}
