import type { ActivitySummary } from '@coffer/contract/activity';
import { describe, expect, it } from 'vitest';
import { idParam, pickActivity } from './pick-activity';

const activity = (id: number, status: ActivitySummary['status'], startsAt: string, endsAt: string): ActivitySummary => ({
  id,
  title: `A${id}`,
  metric: 'swap_volume_usdt',
  startsAt,
  endsAt,
  status,
  prizeCurrency: 'USDT',
  prizeTotal: '100',
});

describe('pickActivity', () => {
  const old = activity(1, 'paid', '2026-10-01T00:00:00Z', '2026-10-08T00:00:00Z');
  const recent = activity(2, 'ended', '2026-11-01T00:00:00Z', '2026-11-08T00:00:00Z');
  const soon = activity(3, 'upcoming', '2026-12-10T00:00:00Z', '2026-12-20T00:00:00Z');
  const sooner = activity(4, 'upcoming', '2026-12-01T00:00:00Z', '2026-12-20T00:00:00Z');
  const live = activity(5, 'live', '2026-11-20T00:00:00Z', '2026-11-30T00:00:00Z');
  const newerLive = activity(6, 'live', '2026-11-21T00:00:00Z', '2026-11-25T00:00:00Z');

  it('prefers the live activity that started last', () => {
    expect(pickActivity([old, live, soon, newerLive])?.id).toBe(6);
  });

  it('then the next to start, then the one that ended last', () => {
    expect(pickActivity([old, soon, sooner, recent])?.id).toBe(4);
    expect(pickActivity([old, recent])?.id).toBe(2);
  });

  it('is null without activities', () => {
    expect(pickActivity([])).toBeNull();
  });
});

describe('idParam', () => {
  it('reads positive integer ids only', () => {
    expect(idParam('12')).toBe(12);
    expect(idParam(null)).toBeNull();
    for (const bad of ['', '0', '01', '-1', '1.5', '1e3', 'abc', '12345678901234567']) expect(idParam(bad)).toBeNull();
  });
});
