import { type ConsoleLanguage, languageKey } from './session';

/**
 * The console's language when the operator has not chosen one: the browser's preferences in
 * order, the first Chinese (zh, zh-CN, zh-TW, ...) or English one deciding; zh-CN or en-US.
 * A browser that lists neither gets en-US.
 */
export function browserLanguage(preferred: readonly string[]): ConsoleLanguage {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
    if (lower === 'en' || lower.startsWith('en-')) return 'en-US';
  }
  return 'en-US';
}

/** The operator's remembered choice (lib/session storeLanguage), else the browser's. */
export function initialLanguage(storage: Pick<Storage, 'getItem'>, preferred: readonly string[]): ConsoleLanguage {
  const chosen = storage.getItem(languageKey);
  if (chosen === 'zh-CN' || chosen === 'en-US') return chosen;
  return browserLanguage(preferred);
}
