import { describe, expect, it } from 'vitest';
import { QUOTE_RENEW_BEFORE_MS, quoteRenewIn } from './fee-quote';

describe('quoteRenewIn', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it('renews a fresh quote shortly before it ends', () => {
    expect(quoteRenewIn('2026-11-26T12:02:00Z', now)).toBe(120_000 - QUOTE_RENEW_BEFORE_MS);
  });
  it('never renews sooner than every few seconds, even for a quote already over', () => {
    expect(quoteRenewIn('2026-11-26T12:00:05Z', now)).toBe(5_000);
    expect(quoteRenewIn('2026-11-26T11:59:00Z', now)).toBe(5_000);
  });
});
