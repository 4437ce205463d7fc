import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from '../locales/en-US.json';
import zhCN from '../locales/zh-CN.json';
import { initialLanguage } from './language';
import { type ConsoleLanguage, storeLanguage } from './session';

/** Both languages ship in the entry: together they are a few kB, and switching is instant. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  // The operator's choice, else the browser's languages (zh* -> zh-CN, otherwise en-US).
  lng: initialLanguage(localStorage, navigator.languages ?? [navigator.language]),
  fallbackLng: 'zh-CN',
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function switchLanguage(language: ConsoleLanguage) {
  storeLanguage(language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}
