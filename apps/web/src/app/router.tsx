import { type ComponentType, useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ensureFeatureMessages } from '../lib/i18n';
import { registerNavigate } from '../lib/navigation';
import { relinkFailedStylesheets } from '../lib/lazy-retrying';
import { loginPath } from '../lib/sign-in-return';
import { demoRoutes } from './demo-routes';
import { createGuard } from './guard';
import { AppLayout } from './layout/app-layout';
import { withProviders } from '../lib/lazy-retrying';
import { loadPages } from './load-pages';
import { PageLoadFailed, RootError, RouteError } from './layout/route-error';
import { clearFeedbackOnNavigation } from '../lib/notify';
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
 * route gets this stand-in, which retries in place, inside the frame (decision 021).
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

/** Every page is its own chunk (docs/product.md §2: all routes load on demand). */
function lazyPage(pageLoad: LoadPage): RouteObject['lazy'] {
  // A stylesheet that failed before (offline) is linked again first: Vite's preloader won't.
  const load = () => relinkFailedStylesheets().then(pageLoad);
  return async () => {
    try {
      return { Component: (await load()).default };
    } catch {
      return { Component: retryingPage(load) };
    }
  };
}

async function loadPage(path: string): Promise<PageModule> {
  const load = (await loadPages()).pages[path];
  if (!load) throw new Error(`no page for ${path}`);
  return load();
}

function page(path: string): RouteObject {
  const load = () => loadPage(path);
  // caseSensitive keeps routing in step with the exact-path rules in route-meta.ts.
  // Every page but the landing one may use the feature texts (lib/i18n.ts) and the page
  // providers (TanStack Query, antd's locale: lazy-retrying.tsx); they load alongside.
  return {
    path,
    caseSensitive: true,
    lazy: lazyPage(async () => (await Promise.all([withProviders(load), ensureFeatureMessages()]))[0]),
  };
}

const appRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('../features/home/pages/home')) },
  page('swap'),
  page('bill/all'),
  page('profile'),
  page('bill'),
  page('bill/detail'),
  page('charge'),
  page('withdraw'),
  page('transfer'),
  page('login'),
  page('register'),
  page('forgot-password'),
  page('settings'),
  page('settings/2fa'),
  page('settings/passkeys'),
  page('settings/security'),
  page('settings/password'),
  page('settings/address-book'),
  page('helpCenter'),
  page('noticeCenter'),
  page('noticeCenter/detail'),
  page('banner/detail'),
  page('banner/ranking'),
];

export function createAppRouter() {
  const router = createBrowserRouter([
    {
      id: 'root',
      path: '/',
      Component: AppLayout,
      ErrorBoundary: RootError,
      HydrateFallback: EmptyFallback,
      loader: createGuard(),
      // The guard runs before every navigation, not only when the root match changes.
      shouldRevalidate: () => true,
      children: [
        {
          // Pathless: a page's error renders in the layout's outlet, keeping the bars.
          ErrorBoundary: RouteError,
          children: [...appRoutes, ...demoRoutes, page('*')],
        },
      ],
    },
  ]);

  // Guard step 5. Also ends the bar started by the first load.
  let navigating = false;
  router.subscribe((state) => {
    if (state.initialized && state.navigation.state === 'idle') doneProgress();
    // A navigation starting (not the first load, not a redirect): the pop-ups of the screen
    // being left go. The first load's are kept ("not signed in" as the guard sends to /login).
    const busy = state.navigation.state !== 'idle';
    if (busy && !navigating && state.initialized) clearFeedbackOnNavigation();
    navigating = busy;
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
