import { QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import type { Locale } from 'antd-mobile/es/locales/base';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { loadAntdLocale, loadedAntdLocale } from './antd-locale';
import { queryClient } from './query-client';
import { useLanguageStore } from '../stores/language';

/**
 * What every page but the landing one's first screen needs around it: TanStack Query's
 * client and antd-mobile's texts in the interface language. A chunk of its own, loaded with
 * each page (withProviders in lazy-retrying.tsx), so the signed-out `/` paints without either
 * (docs/decisions/026-landing-bundle.md). Every page gets its own provider for the one shared
 * client, so the cache is the same everywhere.
 */
export function PageProviders({ children }: { children: ReactNode }) {
  const language = useLanguageStore((state) => state.language);
  // The page's loader waited for the pack (preparePageProviders), so it is there at once.
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

/** Before a wrapped component renders: antd's pack for the current language. */
export async function preparePageProviders() {
  await loadAntdLocale(useLanguageStore.getState().language);
}

const wrapped = new WeakMap<ComponentType<never>, ComponentType<never>>();

/** `Component` inside PageProviders; the same wrapper each time for the same component. */
export function withPageProviders<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  const known = wrapped.get(Component as ComponentType<never>);
  if (known) return known as ComponentType<P>;
  function WithPageProviders(props: P) {
    return (
      <PageProviders>
        <Component {...props} />
      </PageProviders>
    );
  }
  wrapped.set(Component as ComponentType<never>, WithPageProviders as ComponentType<never>);
  return WithPageProviders;
}
