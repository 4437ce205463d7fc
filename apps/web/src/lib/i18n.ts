import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { type AppLanguage, FALLBACK_LANGUAGE, LANGUAGES } from './language';

type Messages = Resource[string]['translation'];

/**
 * Only the interface language's texts load at start; the other file loads when the user
 * switches. index.html preloads the starting file, so waiting for it costs no round trip.
 */
const loaders: Record<AppLanguage, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('../locales/zh-CN.json'),
  'en-US': () => import('../locales/en-US.json'),
};

async function loadMessages(language: AppLanguage): Promise<Messages> {
  return (await loaders[language]()).default;
}

/** Starts i18next with the texts of `language`; resolves once they are in place. */
export async function initI18n(language: AppLanguage) {
  const messages = await loadMessages(language);
  await i18n.use(initReactI18next).init({
    resources: { [language]: { translation: messages } },
    lng: language,
    // The locale parity test keeps both files complete, so the fallback is only a safety net.
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18n;
}

/** Loads the texts of `language` if they are not there yet (before switching to it). */
export async function ensureMessages(language: AppLanguage) {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await loadMessages(language));
}

export { i18n };
