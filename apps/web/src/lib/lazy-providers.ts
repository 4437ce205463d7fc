import type { ComponentType } from 'react';

type Module<P> = { default: ComponentType<P> };

/**
 * Loads a lazy component together with the page providers (TanStack Query, antd-mobile's
 * locale: page-providers.tsx) and hands it back wrapped in them. The landing page's first
 * screen renders without them; everything that needs them comes through here.
 */
export async function withProviders<P extends object>(load: () => Promise<Module<P>>): Promise<Module<P>> {
  const [module, providers] = await Promise.all([
    load(),
    import('./page-providers').then(async (providers) => {
      await providers.preparePageProviders();
      return providers;
    }),
  ]);
  return { default: providers.withPageProviders(module.default) };
}
