import { DEFAULT_LOCALE, FALLBACK_LOCALE, type Locale, LOCALES } from '@coffer/contract/rules';

/** Interface languages: the contract's locales (zh-CN the product default, en-US the fallback). */
export const LANGUAGES = LOCALES;
export type AppLanguage = Locale;

export const DEFAULT_LANGUAGE: AppLanguage = DEFAULT_LOCALE;
export const FALLBACK_LANGUAGE: AppLanguage = FALLBACK_LOCALE;

export function isAppLanguage(value: unknown): value is AppLanguage {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Spec §4: the stored language wins; otherwise the browser's languages in order, matched
 * exactly and then by their primary subtag ("zh-TW" -> zh-CN, "en-GB" -> en-US);
 * otherwise English.
 */
export function pickLanguage(stored: string | null | undefined, browser: readonly string[]): AppLanguage {
  if (isAppLanguage(stored)) return stored;
  const tags = browser.map((tag) => tag.trim().toLowerCase()).filter(Boolean);
  for (const tag of tags) {
    const exact = LANGUAGES.find((lang) => lang.toLowerCase() === tag);
    if (exact) return exact;
  }
  for (const tag of tags) {
    const primary = tag.split('-')[0];
    const prefix = LANGUAGES.find((lang) => lang.toLowerCase().split('-')[0] === primary);
    if (prefix) return prefix;
  }
  return FALLBACK_LANGUAGE;
}

/** The browser's preference list, newest API first. */
export function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  if (navigator.languages?.length) return [...navigator.languages];
  return navigator.language ? [navigator.language] : [];
}
