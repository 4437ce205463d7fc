import type { ActivitySummary } from '@coffer/contract/activity';

/**
 * The activity /banner/ranking shows without an id: the live one that started last; else
 * the next to start; else the one that ended last. Null for an empty list.
 */
export function pickActivity(items: readonly ActivitySummary[]): ActivitySummary | null {
  const byStart = (a: ActivitySummary, b: ActivitySummary) => Date.parse(b.startsAt) - Date.parse(a.startsAt);
  const live = items.filter((a) => a.status === 'live').sort(byStart);
  if (live[0]) return live[0];
  const upcoming = items.filter((a) => a.status === 'upcoming').sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  if (upcoming[0]) return upcoming[0];
  const closed = [...items].sort((a, b) => Date.parse(b.endsAt) - Date.parse(a.endsAt));
  return closed[0] ?? null;
}

/** `?id=` as a positive integer id, or null (absent or malformed). */
export { recordIdParam as idParam } from '../../../lib/record-id';
