import type { RouteObject } from 'react-router';
import { ensureFeatureMessages } from '../lib/i18n';
import { withProviders } from '../lib/lazy-retrying';
import { loadPages } from './load-pages';
import { DEMO_PATHS } from '../lib/route-meta';

/**
 * The spec's demo pages, served in every build (docs/product.md §10.4), from route-meta's list. They
 * share one lazy chunk, so the first screen pays nothing for them but this small table.
 */
export const demoRoutes: RouteObject[] = DEMO_PATHS.map((path) => ({
  path: path.slice(1),
  caseSensitive: true,
  lazy: async () => {
    // Like every page but the landing one: the page providers and the feature texts alongside.
    const [{ default: Component }] = await Promise.all([
      withProviders(async () => {
        const page = (await (await loadPages()).loadDemoPages()).demoPages[path];
        // route-meta's demo list and the demo pages' table name the same paths.
        if (!page) throw new Error(`no demo page for ${path}`);
        return { default: page };
      }),
      ensureFeatureMessages(),
    ]);
    return { Component };
  },
}));
