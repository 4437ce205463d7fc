/**
 * Where to go after signing in (decision 021). The target rides in the sign-in page's
 * query (`/login?redirect=/transfer`), so it survives a reload; it is followed only when it
 * is a path of this app, never another origin (open-redirect guard).
 */
export const RETURN_PARAM = 'redirect';

/** Longer targets are not ours (the longest app path with its query is well under this). */
const MAX_RETURN_PATH_CHARS = 512;

/** Returning to these would loop through sign-in again. */
const AUTH_PATHS: readonly string[] = ['/login', '/register', '/forgot-password'];

/** Any fixed origin works: only whether the parsed URL stays on it matters. */
const BASE = 'https://app.invalid';

/** The in-app path `raw` names, or '/' when it is missing, foreign or malformed. */
export function safeReturnPath(raw: string | null | undefined): string {
  if (!raw || raw.length > MAX_RETURN_PATH_CHARS) return '/';
  // "//host" and "/\host" are other origins to a browser; control characters are never ours.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || AUTH_PATHS.includes(url.pathname)) return '/';
  return url.pathname + url.search + url.hash;
}

/** The sign-in page, told to come back to `target` afterwards. */
export function loginPath(target: string): string {
  const path = safeReturnPath(target);
  return path === '/' ? '/login' : `/login?${RETURN_PARAM}=${encodeURIComponent(path)}`;
}

/** The return target carried by a sign-in page's query string. */
export function returnPathFrom(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get(RETURN_PARAM));
}
