import crypto from 'node:crypto';
import { ErrorCode, idempotencyKey } from '@coffer/contract';
import type { FastifyRequest } from 'fastify';
import { BizError } from '../core/errors.ts';

/**
 * Money-moving POSTs take an Idempotency-Key header (DESIGN §5). The key is scoped to the
 * user; the hash of the request body tells a replay (same body: same answer, no second
 * movement) from a reused key (another body: 3010).
 */
export function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return null;
  const parsed = idempotencyKey.safeParse(value);
  if (!parsed.success) throw new BizError(ErrorCode.INVALID_PARAMS, 'Idempotency-Key');
  return parsed.data;
}

/** A stable hash of the operation: the route plus the canonical JSON of its inputs. */
export function requestHash(operation: string, input: Record<string, unknown>): string {
  const canonical = JSON.stringify(
    Object.keys(input)
      .sort()
      .map((k) => [k, input[k] ?? null]),
  );
  return crypto.createHash('sha256').update(operation).update('\0').update(canonical).digest('hex');
}
