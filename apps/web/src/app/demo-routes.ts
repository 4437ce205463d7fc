import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

type PageModule = { default: ComponentType };

function demo(path: string, load: () => Promise<PageModule>): RouteObject {
  return { path, caseSensitive: true, lazy: async () => ({ Component: (await load()).default }) };
}

/**
 * The spec's demo pages, served in every build (DESIGN §8). Each is its own lazy chunk, so
 * the first screen pays nothing for them.
 */
export const demoRoutes: RouteObject[] = [
  demo('charts', () => import('../features/demo/pages/charts')),
  demo('counter', () => import('../features/demo/pages/counter')),
  demo('counter/index1', () => import('../features/demo/pages/counter-index1')),
  demo('keepalive', () => import('../features/demo/pages/keepalive')),
  demo('mock', () => import('../features/demo/pages/mock')),
  demo('scroll-cache', () => import('../features/demo/pages/scroll-cache')),
  demo('unocss', () => import('../features/demo/pages/unocss')),
];
