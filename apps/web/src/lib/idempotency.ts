/**
 * A fresh Idempotency-Key for one submit of a money-moving POST (docs/product.md §5.9). randomUUID
 * needs a secure context; plain-http LAN hosts fall back to getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
