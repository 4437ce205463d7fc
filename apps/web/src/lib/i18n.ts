import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { type AppLanguage, FALLBACK_LANGUAGE } from './language';

/**
 * Both locale files are a few kB, so they ship in the entry: switching language then
 * never waits on the network and texts never flash untranslated.
 */
export function initI18n(language: AppLanguage) {
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: ['zh-CN', 'en-US'],
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return i18n;
}

export { i18n };
