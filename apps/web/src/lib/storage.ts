/**
 * Every browser storage key the app uses, in one place so tests and e2e can seed them.
 * The token lives in localStorage (survives restarts); the user record in sessionStorage
 * (the guard refreshes it on every protected navigation, so it never outlives the tab).
 */
export const STORAGE_KEYS = {
  accessToken: 'access_token',
  user: 'user_info',
  language: 'language',
  theme: 'theme',
  /** '1' shows Settings' Developer section on this browser (lib/developer-menu.ts). */
  developerMenu: 'developerMenu',
} as const;

// Storage can throw (Safari private mode, disabled cookies); the app must keep working.
function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const local = {
  get: (key: string): string | null => safe(() => localStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => localStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => localStorage.removeItem(key), undefined),
};

export const session = {
  get: (key: string): string | null => safe(() => sessionStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => sessionStorage.setItem(key, value), undefined),
  clear: (): void => safe(() => sessionStorage.clear(), undefined),
};

/** The stored access token is tokenHead + token ("Bearer abc"), sent verbatim as X-Token. */
export const tokenStorage = {
  get: (): string | null => local.get(STORAGE_KEYS.accessToken),
  set: (xToken: string): void => local.set(STORAGE_KEYS.accessToken, xToken),
  clear: (): void => local.remove(STORAGE_KEYS.accessToken),
};
