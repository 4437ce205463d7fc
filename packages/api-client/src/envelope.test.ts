import { describe, expect, it } from 'vitest';
import { ApiError, errorText, isApiError } from './api-error.ts';
import { dataOf, isEnvelope, sessionTokenOf } from './envelope.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeaders, newIdempotencyKey } from './idempotency.ts';

describe('the envelope (docs/product.md §5.3)', () => {
  it('recognises {code, message, data} by its numeric code', () => {
    expect(isEnvelope({ code: 0, message: 'ok', data: null })).toBe(true);
    expect(isEnvelope({ code: '0' })).toBe(false);
    expect(isEnvelope('<html>')).toBe(false);
    expect(isEnvelope(null)).toBe(false);
  });

  it('unwraps a success to its data and throws a refusal as ApiError', () => {
    expect(dataOf({ code: 0, message: 'ok', data: [1, 2] })).toEqual([1, 2]);
    expect(() => dataOf({ code: 2002, message: 'Wrong e-mail or password', data: null })).toThrow(ApiError);
    const error = (() => {
      try {
        return dataOf({ code: 4004, message: 'Not found', data: null }, 404);
      } catch (e) {
        return e;
      }
    })();
    expect(isApiError(error, 4004)).toBe(true);
    expect(isApiError(error, 4003)).toBe(false);
    expect(error).toMatchObject({ status: 404, data: null });
    expect(errorText(error, 'fallback')).toBe('Not found');
    expect(errorText(new Error('internal detail'), 'fallback')).toBe('fallback');
  });

  it('reads a session token as X-Token wants it (docs/product.md §5.5)', () => {
    expect(sessionTokenOf({ token: 'abc', tokenHead: 'Bearer ' })).toBe('Bearer abc');
    expect(sessionTokenOf({ token: 'abc' })).toBe('abc');
    expect(sessionTokenOf({ token: '' })).toBeNull();
    expect(sessionTokenOf({ challenge: 'x' })).toBeNull();
    expect(sessionTokenOf(null)).toBeNull();
  });
});

describe('the Idempotency-Key (docs/product.md §5.9)', () => {
  it('is fresh for every submit and travels in its header', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    expect(idempotencyHeaders('k')).toEqual({ [IDEMPOTENCY_HEADER]: 'k' });
    expect(IDEMPOTENCY_HEADER).toBe('Idempotency-Key');
  });
});
