import { create } from 'zustand';
import { ensureMessages, i18n } from '../lib/i18n';
import { type AppLanguage, browserLanguages, pickLanguage } from '../lib/language';
import { local, STORAGE_KEYS } from '../lib/storage';

export function initialLanguage(): AppLanguage {
  return pickLanguage(local.get(STORAGE_KEYS.language), browserLanguages());
}

/** Saves the choice (it also becomes the accept-language of every request) and applies it. */
export function applyLanguage(language: AppLanguage) {
  local.set(STORAGE_KEYS.language, language);
  document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

interface LanguageState {
  language: AppLanguage;
  setLanguage: (language: AppLanguage) => Promise<void>;
}

export const useLanguageStore = create<LanguageState>((set) => ({
  language: initialLanguage(),
  setLanguage: async (language) => {
    // Texts first, so the interface never shows keys while the other file loads.
    await ensureMessages(language);
    applyLanguage(language);
    set({ language });
  },
}));
