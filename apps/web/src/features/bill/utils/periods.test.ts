import { describe, expect, it } from 'vitest';
import { earliestCustomDay, localDay, parseLocalDay, periodRange } from './periods';

const now = new Date(2026, 10, 22, 15, 30);

describe('periodRange', () => {
  it('has no bounds for all time', () => {
    expect(periodRange('all', now)).toBeNull();
  });

  it('covers whole local days up to the end of today', () => {
    const today = periodRange('today', now)!;
    expect(new Date(today.from)).toEqual(new Date(2026, 10, 22));
    expect(new Date(today.to)).toEqual(new Date(2026, 10, 23));
    const week = periodRange('7d', now)!;
    expect(new Date(week.from)).toEqual(new Date(2026, 10, 16));
  });

  it('takes custom days inclusively and refuses reversed or malformed ones', () => {
    const range = periodRange('custom', now, { start: '2026-11-01', end: '2026-11-03' })!;
    expect(new Date(range.from)).toEqual(new Date(2026, 10, 1));
    expect(new Date(range.to)).toEqual(new Date(2026, 10, 4));
    expect(periodRange('custom', now, { start: '2026-11-05', end: '2026-11-03' })).toBeNull();
    expect(periodRange('custom', now, { start: '2026-02-30', end: '2026-03-01' })).toBeNull();
    expect(periodRange('custom', now, {})).toBeNull();
  });

  it('round-trips local days', () => {
    expect(localDay(parseLocalDay('2026-01-09')!)).toBe('2026-01-09');
    expect(parseLocalDay('26-1-9')).toBeNull();
  });
});

describe('earliestCustomDay', () => {
  it('reaches the first of the same month a year back', () => {
    expect(localDay(earliestCustomDay(now))).toBe('2025-11-01');
    expect(localDay(earliestCustomDay(new Date(2026, 0, 31)))).toBe('2025-01-01');
  });
});
