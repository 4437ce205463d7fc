/** The header a money-moving POST carries so a retried submit is applied once (decision 012). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * A fresh key for one submit of a money-moving POST (docs/product.md §5.9): a form keeps it
 * while the same submit may be retried and takes a new one after an answer. randomUUID needs
 * a secure context; plain-http LAN hosts fall back to getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The header of a keyed request. */
export function idempotencyHeaders(key: string): Record<string, string> {
  return { [IDEMPOTENCY_HEADER]: key };
}
