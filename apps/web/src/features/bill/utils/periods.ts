/** Date-range filters of the statement; ranges are local days, sent as ISO instants. */
export const PERIODS = ['all', 'today', '7d', '30d', '90d', 'custom'] as const;
export type Period = (typeof PERIODS)[number];

const DAYS: Record<Exclude<Period, 'all' | 'custom'>, number> = { today: 1, '7d': 7, '30d': 30, '90d': 90 };
/** How far back a custom range may start: this month and the 12 before it (decision 022: at least a year). */
export const CUSTOM_RANGE_MONTHS_BACK = 12;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isPeriod(value: string | null): value is Period {
  return (PERIODS as readonly (string | null)[]).includes(value);
}

function startOfDay(date: Date): Date {
  const copy = new Date(date);
  copy.setHours(0, 0, 0, 0);
  return copy;
}

function addDays(date: Date, days: number): Date {
  const copy = new Date(date);
  copy.setDate(copy.getDate() + days);
  return copy;
}

/** "2026-11-22" for a local date. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A local "YYYY-MM-DD" as the Date of its midnight, or null. */
export function parseLocalDay(text: string | null | undefined): Date | null {
  const match = text ? DAY_RE.exec(text) : null;
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return localDay(date) === text ? date : null;
}

/**
 * `from` (inclusive) and `to` (exclusive) for the getTurnover filters: the last N local days
 * including today, or the custom days start..end inclusive; null means no bound.
 */
export function periodRange(
  period: Period,
  now: Date,
  custom?: { start?: string | null; end?: string | null },
): { from: string; to: string } | null {
  const tomorrow = addDays(startOfDay(now), 1);
  if (period === 'all') return null;
  if (period === 'custom') {
    const start = parseLocalDay(custom?.start);
    const end = parseLocalDay(custom?.end);
    if (!start || !end || end < start) return null;
    return { from: start.toISOString(), to: addDays(end, 1).toISOString() };
  }
  return { from: addDays(tomorrow, -DAYS[period]).toISOString(), to: tomorrow.toISOString() };
}

/** The first day a custom range may start on: the 1st of the month CUSTOM_RANGE_MONTHS_BACK ago. */
export function earliestCustomDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth() - CUSTOM_RANGE_MONTHS_BACK, 1);
}
