/** Dates as the operator's browser shows them; amounts are never formatted (decimal strings as given). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A value of unknown shape (audit samples, before/after) as indented JSON. */
export function asJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}
