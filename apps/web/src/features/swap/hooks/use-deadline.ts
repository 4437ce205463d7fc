import { SWAP_QUOTE_TTL_SECONDS } from '@coffer/contract/rules';
import { useEffect, useState } from 'react';

/** How long a quote holds (the contract's zod-free rules entry: no schemas in this chunk). */
export const QUOTE_TTL_SECONDS = SWAP_QUOTE_TTL_SECONDS;

/** Whole seconds left until `deadline` (epoch ms), ticking; 0 once passed or without one. */
export function useSecondsLeft(deadline: number | null): number {
  const compute = () => (deadline === null ? 0 : Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
  const [left, setLeft] = useState(compute);
  // biome-ignore lint/correctness/useExhaustiveDependencies: compute only reads deadline
  useEffect(() => {
    setLeft(compute());
    if (deadline === null) return;
    const timer = setInterval(() => {
      const next = compute();
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [deadline]);
  return left;
}

/**
 * A local deadline for a quote: the server's expiresAt when it is plausible, else the full
 * TTL from now. A phone whose clock is off must neither show an expired quote as live
 * nor throw away a fresh one at once.
 */
export function quoteDeadline(expiresAt: string, ttlSeconds: number, now = Date.now()): number {
  const remaining = Date.parse(expiresAt) - now;
  const ttl = ttlSeconds * 1000;
  return now + (Number.isFinite(remaining) && remaining > 0 && remaining <= ttl ? remaining : ttl);
}
