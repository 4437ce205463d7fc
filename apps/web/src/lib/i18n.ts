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

/**
 * Texts only other pages use (charge, withdraw, chain statuses, two-factor, passkeys, security
 * centre, statement, form validation, profile, settings and the language names, the demo and
 * not-found pages): a second file per language, merged in when the first page other than the
 * landing one loads, so `/` does not carry them (docs/decisions/026-landing-bundle.md).
 */
const featureLoaders: Record<AppLanguage, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('../locales/features/zh-CN.json'),
  'en-US': () => import('../locales/page-texts-en-US').then((texts) => ({ default: texts.features })),
};

const coreLoaded = new Set<string>();
const featuresLoaded = new Set<string>();
let featuresWanted = false;

async function loadMessages(language: AppLanguage): Promise<Messages> {
  const messages = (await loaders[language]()).default;
  coreLoaded.add(language);
  return messages;
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
  if (!coreLoaded.has(language)) i18n.addResourceBundle(language, 'translation', await loadMessages(language), true, false);
  if (featuresWanted) await ensureFeatureMessages(language);
}

/** Merges the feature texts of `language` (default: the current one) once; pages await it. */
export async function ensureFeatureMessages(language = i18n.language as AppLanguage) {
  featuresWanted = true;
  if (featuresLoaded.has(language) || !(language in featureLoaders)) return;
  const messages = (await featureLoaders[language]()).default;
  i18n.addResourceBundle(language, 'translation', messages, true, false);
  featuresLoaded.add(language);
}

export { i18n };
