import { i18n } from '../../../lib/i18n';
import { localDay } from './periods';

/** Records grouped under one header per local day; lists arrive newest first. */
export interface DayGroup<T> {
  key: string;
  label: string;
  items: T[];
}

function validDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The local calendar day of an instant ("2026-11-22"), the grouping key. */
export function dayKey(iso: string): string {
  const date = validDate(iso);
  return date ? localDay(date) : '';
}

/** The day header in the interface language ("November 22, 2026", "2026年11月22日"). */
export function formatDay(iso: string, locale = i18n.language || 'zh-CN'): string {
  const date = validDate(iso);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date) : '--';
}

/** The time of day under a day header (24-hour clock, with seconds as before). */
export function formatTime(iso: string, locale = i18n.language || 'zh-CN'): string {
  const date = validDate(iso);
  return date
    ? new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(date)
    : '--';
}

/** Consecutive items of the same local day form one group, in the order given. */
export function groupByDay<T>(items: T[], timeOf: (item: T) => string, locale?: string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const iso = timeOf(item);
    const key = dayKey(iso);
    const last = groups.at(-1);
    if (last && last.key === key) last.items.push(item);
    else groups.push({ key, label: formatDay(iso, locale), items: [item] });
  }
  return groups;
}
