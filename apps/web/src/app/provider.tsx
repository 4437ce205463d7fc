import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, setDefaultConfig } from 'antd-mobile';
import type { Locale } from 'antd-mobile/es/locales/base';
import { type ReactNode, useEffect, useState } from 'react';
import { queryClient } from '../lib/query-client';
import type { AppLanguage } from '../lib/language';
import { useLanguageStore } from '../stores/language';

/**
 * antd-mobile ships zh-CN as its built-in default, so only the English pack is fetched,
 * and only when English is chosen.
 */
async function loadAntdLocale(language: AppLanguage): Promise<Locale> {
  if (language === 'en-US') return (await import('antd-mobile/es/locales/en-US')).default;
  return (await import('antd-mobile/es/locales/zh-CN')).default;
}

export function AppProvider({ children }: { children: ReactNode }) {
  const language = useLanguageStore((state) => state.language);
  const [locale, setLocale] = useState<Locale | null>(null);

  useEffect(() => {
    let current = true;
    void loadAntdLocale(language).then((loaded) => {
      if (!current) return;
      // Imperative Dialog/Toast render outside this tree and read the default config.
      setDefaultConfig({ locale: loaded });
      setLocale(loaded);
    });
    return () => {
      current = false;
    };
  }, [language]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider {...(locale ? { locale } : {})}>{children}</ConfigProvider>
    </QueryClientProvider>
  );
}
