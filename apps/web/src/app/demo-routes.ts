import type { RouteObject } from 'react-router';
import { DEMO_PATHS } from './route-meta';

/**
 * The spec's demo pages, served in every build (DESIGN §8), from route-meta's list. They
 * share one lazy chunk, so the first screen pays nothing for them but this small table.
 */
export const demoRoutes: RouteObject[] = DEMO_PATHS.map((path) => ({
  path: path.slice(1),
  caseSensitive: true,
  lazy: async () => ({ Component: (await import('../features/demo/pages')).demoPages[path] }),
}));
