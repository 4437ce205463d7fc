import { type Locale, LOCALES } from '@coffer/contract/rules';

/**
 * The console keeps its own token (separate key from the phone app's), so signing out of one
 * does not sign the other out, and an operator's session never leaks into the wallet pages.
 */
const TOKEN_KEY = 'coffer.console.token';
/** Where the operator's own language choice is kept (none until they choose one). */
export const languageKey = 'coffer.console.language';

/** The contract's locales, zh-CN first. */
export const CONSOLE_LANGUAGES = LOCALES;
export type ConsoleLanguage = Locale;

export const tokenStore = {
  get: (): string | null => localStorage.getItem(TOKEN_KEY),
  set: (head: string, token: string) => localStorage.setItem(TOKEN_KEY, `${head}${token}`),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

export function storeLanguage(language: ConsoleLanguage) {
  localStorage.setItem(languageKey, language);
}

/** Why the console signed out (idle, or the server ended the session): shown once on the sign-in page. */
const SIGNED_OUT_KEY = 'coffer.console.signedOutReason';
export const signedOutReason = {
  take: (): string | null => {
    const value = sessionStorage.getItem(SIGNED_OUT_KEY);
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    return value;
  },
  set: (message: string) => sessionStorage.setItem(SIGNED_OUT_KEY, message),
};
