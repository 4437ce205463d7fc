/**
 * Guard step 3: every navigation is recorded. The nav bar's back arrow uses it to tell a
 * deep link (nothing to go back to: replace with /) from an in-app visit.
 */
const MAX_RECORDS = 50;
const records: string[] = [];

export function recordRoute(location: string) {
  if (records.at(-1) === location) return;
  records.push(location);
  if (records.length > MAX_RECORDS) records.shift();
}

export function recordedRoutes(): readonly string[] {
  return records;
}
