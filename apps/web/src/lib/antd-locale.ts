import { setDefaultConfig } from 'antd-mobile';
import type { Locale } from 'antd-mobile/es/locales/base';
import type { AppLanguage } from './language';

const loaded = new Map<AppLanguage, Locale>();

/**
 * antd-mobile's texts (dialog buttons, form prompts) in the interface language. The packs
 * load on demand; index.html preloads the English one so waiting for it costs no round trip.
 */
export async function loadAntdLocale(language: AppLanguage): Promise<Locale> {
  let locale = loaded.get(language);
  if (!locale) {
    locale =
      language === 'en-US' ? (await import('../locales/page-texts-en-US')).antd : (await import('antd-mobile/es/locales/zh-CN')).default;
    loaded.set(language, locale);
  }
  // Imperative Dialog/Toast render outside the React tree and read the default config.
  setDefaultConfig({ locale });
  return locale;
}

export function loadedAntdLocale(language: AppLanguage): Locale | null {
  return loaded.get(language) ?? null;
}
