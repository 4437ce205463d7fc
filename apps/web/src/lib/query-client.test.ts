import { describe, expect, it } from 'vitest';
import { ApiError } from '@coffer/api-client/api-error';
import { shouldRetry } from './query-client';

describe('query retry policy', () => {
  it('retries a request that got no answer once', () => {
    const lost = Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK' });
    expect(shouldRetry(0, lost)).toBe(true);
    expect(shouldRetry(1, lost)).toBe(false);
  });

  it('never retries an HTTP answer or a business refusal', () => {
    const forbidden = Object.assign(new Error('403'), { isAxiosError: true, response: { status: 403 } });
    expect(shouldRetry(0, forbidden)).toBe(false);
    expect(shouldRetry(0, new ApiError(3001, 'insufficient', null))).toBe(false);
  });
});
