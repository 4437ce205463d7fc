import type { Envelope } from '@coffer/contract/envelope';
import { ApiError, NOT_AN_ENVELOPE } from './api-error.ts';

// Only the envelope's type comes from the contract: its zod schema would bring zod into both
// bundles, and zod probes eval, which the console's CSP refuses.
export type { Envelope };

/** Success code of every envelope (ErrorCode.OK in the contract). */
export const ENVELOPE_OK = 0;

/** Every answer of the API is `{code, message, data}` (docs/product.md §5.3). */
export function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number';
}

/** The refusal an envelope with a non-zero code stands for. */
export function refusalOf(envelope: Envelope<unknown>, status = 200): ApiError {
  return new ApiError(envelope.code, envelope.message, envelope.data ?? null, status);
}

/**
 * The data of a success envelope; throws the refusal for any other code, and ApiError NOT_AN_ENVELOPE
 * (with the status text) for an answer that is no envelope.
 */
export function dataOf<T>(body: unknown, status = 200, statusText = ''): T {
  if (!isEnvelope(body)) throw new ApiError(NOT_AN_ENVELOPE, statusText || 'network', null, status);
  if (body.code !== ENVELOPE_OK) throw refusalOf(body, status);
  return body.data as T;
}

/**
 * The session token an answer carries (sign-in, second factor, password change), as the
 * `X-Token` header wants it (`tokenHead` + `token`, e.g. "Bearer abc"); null when it has none.
 */
export function sessionTokenOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { token, tokenHead } = data as { token?: unknown; tokenHead?: unknown };
  if (typeof token !== 'string' || !token) return null;
  return `${typeof tokenHead === 'string' ? tokenHead : ''}${token}`;
}
