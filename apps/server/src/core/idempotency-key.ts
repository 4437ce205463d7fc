import { ErrorCode, idempotencyKey } from '@coffer/contract';
import type { FastifyRequest } from 'fastify';
import { BizError } from './errors.ts';

/**
 * Money-moving POSTs take an Idempotency-Key header (docs/product.md §5.9); the route reads it here and
 * hands the ledger the key string only (ledger/idempotency.ts scopes it to the user and hashes
 * the body). null when absent; 1001 when not a valid key.
 */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return null;
  const parsed = idempotencyKey.safeParse(value);
  if (!parsed.success) throw new BizError(ErrorCode.INVALID_PARAMS, 'Idempotency-Key');
  return parsed.data;
}
