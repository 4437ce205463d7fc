import { local, STORAGE_KEYS } from './storage';

/**
 * Settings' Developer section links to the spec's demo pages. Those routes stay served in
 * every build, but customers should not meet a "Developer" entry: it is listed only when
 * the build says so (VITE_DEVELOPER_MENU=1 at `npm run build`), in development (`vite dev`),
 * or on one browser whose localStorage has developerMenu = "1" (README, "Developer menu").
 */
export function developerMenuEnabled(): boolean {
  return import.meta.env.VITE_DEVELOPER_MENU === '1' || import.meta.env.DEV || local.get(STORAGE_KEYS.developerMenu) === '1';
}
