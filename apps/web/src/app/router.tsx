import type { QueryClient } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ensureFeatureMessages } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { loginPath } from '../lib/sign-in-return';
import { demoRoutes } from './demo-routes';
import { createGuard } from './guard';
import { AppLayout } from './layout/app-layout';
import { PageLoadFailed, RootError, RouteError } from './layout/route-error';
import { doneProgress } from './progress';

/** Nothing to show before the first guard run; the progress bar is already visible. */
function EmptyFallback() {
  return null;
}

type PageModule = { default: ComponentType };
type LoadPage = () => Promise<PageModule>;

/**
 * What a route shows when its chunk could not be fetched. react-router keeps a route's
 * first lazy() result for good, a rejection included, so a failure must not reach it: the
 * route gets this stand-in, which retries in place, inside the frame (issue 9 item 2).
 */
function retryingPage(load: LoadPage): ComponentType {
  let loaded: ComponentType | null = null;
  return function PageRetry() {
    const [Page, setPage] = useState<ComponentType | null>(() => loaded);
    if (Page) return <Page />;
    const retry = async () => {
      try {
        loaded = (await load()).default;
        setPage(() => loaded);
      } catch {
        // Chrome keeps a failed module fetch for the page's life; a reload fetches afresh.
        if (navigator.onLine) window.location.reload();
      }
    };
    return <PageLoadFailed onRetry={retry} />;
  };
}

/** Every page is its own chunk (spec §2: all routes load on demand). */
function lazyPage(load: LoadPage): RouteObject['lazy'] {
  return async () => {
    try {
      return { Component: (await load()).default };
    } catch {
      return { Component: retryingPage(load) };
    }
  };
}

function page(path: string, load: LoadPage): RouteObject {
  // caseSensitive keeps routing in step with the exact-path rules in route-meta.ts.
  // Every page but the landing one may use the feature texts (lib/i18n.ts): they load alongside.
  return {
    path,
    caseSensitive: true,
    lazy: lazyPage(async () => (await Promise.all([load(), ensureFeatureMessages()]))[0]),
  };
}

const appRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('../features/home/pages/home')) },
  page('swap', () => import('../features/swap/pages/swap')),
  page('bill/all', () => import('../features/bill/pages/bill-all')),
  page('profile', () => import('../features/profile/pages/profile')),
  page('bill', () => import('../features/bill/pages/bill-list')),
  page('bill/detail', () => import('../features/bill/pages/bill-detail')),
  page('charge', () => import('../features/charge/pages/charge')),
  page('withdraw', () => import('../features/withdraw/pages/withdraw')),
  page('transfer', () => import('../features/transfer/pages/transfer')),
  page('login', () => import('../features/auth/pages/login')),
  page('register', () => import('../features/auth/pages/register')),
  page('forgot-password', () => import('../features/auth/pages/forgot-password')),
  page('settings', () => import('../features/settings/pages/settings')),
  page('settings/2fa', () => import('../features/two-factor/pages/two-factor')),
  page('settings/passkeys', () => import('../features/passkeys/pages/passkeys')),
  page('settings/security', () => import('../features/security/pages/security')),
  page('helpCenter', () => import('../features/help-center/pages/help-center')),
  page('noticeCenter', () => import('../features/notice-center/pages/notice-center')),
  page('noticeCenter/detail', () => import('../features/notice-center/pages/notice-detail')),
  page('banner/detail', () => import('../features/banner/pages/banner-detail')),
  page('banner/ranking', () => import('../features/banner/pages/banner-ranking')),
];

export function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter([
    {
      id: 'root',
      path: '/',
      Component: AppLayout,
      ErrorBoundary: RootError,
      HydrateFallback: EmptyFallback,
      loader: createGuard(queryClient),
      // The guard runs before every navigation, not only when the root match changes.
      shouldRevalidate: () => true,
      children: [
        {
          // Pathless: a page's error renders in the layout's outlet, keeping the bars.
          ErrorBoundary: RouteError,
          children: [...appRoutes, ...demoRoutes, page('*', () => import('../features/misc/pages/not-found'))],
        },
      ],
    },
  ]);

  // Guard step 5. Also ends the bar started by the first load.
  router.subscribe((state) => {
    if (state.initialized && state.navigation.state === 'idle') doneProgress();
  });

  // Code 2001 outside a navigation (e.g. a mutation) sends the user to /login; during a
  // navigation the guard's own redirect handles it.
  registerNavigate((to) => {
    const { initialized, navigation, location } = router.state;
    if (!initialized || navigation.state !== 'idle' || location.pathname === to) return;
    const target = to === '/login' ? loginPath(location.pathname + location.search) : to;
    void router.navigate(target, { replace: true });
  });

  return router;
}
