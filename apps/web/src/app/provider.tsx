import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import type { Locale } from 'antd-mobile/es/locales/base';
import { type ReactNode, useEffect, useState } from 'react';
import { loadAntdLocale, loadedAntdLocale } from '../lib/antd-locale';
import { queryClient } from '../lib/query-client';
import { useLanguageStore } from '../stores/language';

export function AppProvider({ children }: { children: ReactNode }) {
  const language = useLanguageStore((state) => state.language);
  // main.tsx starts loading the pack; until it arrives the router shows no page yet.
  const [locale, setLocale] = useState<Locale | null>(() => loadedAntdLocale(language));

  useEffect(() => {
    let current = true;
    void loadAntdLocale(language).then((next) => {
      if (current) setLocale(next);
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
