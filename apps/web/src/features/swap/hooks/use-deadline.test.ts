import { describe, expect, it } from 'vitest';
import { quoteDeadline } from './use-deadline';

describe('quoteDeadline', () => {
  const now = Date.parse('2026-11-22T08:00:00Z');

  it("uses the server's expiry when plausible", () => {
    expect(quoteDeadline('2026-11-22T08:00:12Z', 15, now)).toBe(now + 12_000);
  });

  it('falls back to the full TTL when the clocks disagree', () => {
    expect(quoteDeadline('2026-11-22T07:59:00Z', 15, now)).toBe(now + 15_000);
    expect(quoteDeadline('2026-11-22T08:05:00Z', 15, now)).toBe(now + 15_000);
    expect(quoteDeadline('not a date', 15, now)).toBe(now + 15_000);
  });
});
