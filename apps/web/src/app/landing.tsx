import { type ComponentType, StrictMode, startTransition } from 'react';
import type { Root } from 'react-dom/client';
import { registerNavigate } from '../lib/navigation';
import { loginPath } from '../lib/sign-in-return';
import { AppFrame } from './layout/app-frame';
import { setLandingNavigate } from '../lib/nav';
import { recordRoute } from './route-history';

/** The router, the route table, the guard and react-router (29 kB gzip): not on the first screen. */
const loadRouter = () => import('./start-router');

function whenIdle(run: () => void) {
  const afterLoad = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/**
 * The signed-out landing page (`/`) without the router (decision 026): React renders the
 * frame and the home page directly, as the router would, and the router's code is fetched
 * once the page has loaded and the browser is idle. The first link click (or a back/forward
 * move) hands the page over: the router starts on `/`, opens the link's target, and replaces
 * the landing page with that page in one commit (app/start-router.tsx). A click before the
 * router's code has arrived waits for it. If that code cannot be fetched, the link is
 * followed as a plain link (the server, or the service worker offline, serves the app there).
 */
export function startLanding(root: Root, HomePage: ComponentType) {
  let target: string | undefined;
  let handingOver = false;

  const handOver = (to?: string) => {
    if (to !== undefined) target = to;
    if (handingOver) return;
    handingOver = true;
    loadRouter()
      .then(({ startRouter }) => startRouter(root, () => target))
      .catch(() => {
        handingOver = false;
        if (target !== undefined) window.location.assign(target);
      });
  };

  setLandingNavigate(handOver);
  // Code 2001 outside a navigation: to sign-in, as the router would (router.tsx).
  registerNavigate((to) => handOver(to === '/login' ? loginPath(window.location.pathname + window.location.search) : to));
  // Guard step 3 for the first page (the guard runs again on `/` when the router starts; the
  // record skips the repeat). The frame sets the title (guard step 2).
  recordRoute(window.location.pathname + window.location.search);
  // Back or forward to an entry of this tab's history: the router opens it.
  window.addEventListener('popstate', () => handOver(), { once: true });
  whenIdle(() => {
    loadRouter().catch(() => undefined);
  });

  // In a transition: React renders the page in slices of a few milliseconds, yielding to the
  // browser between them, instead of one task long enough to count as blocking time on a
  // slow phone (the boot screen of index.html is on screen meanwhile; decision 032).
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppFrame
          pathname={window.location.pathname}
          search={window.location.search}
          navigate={(to) => (typeof to === 'number' ? window.history.go(to) : handOver(to))}
        >
          <HomePage />
        </AppFrame>
      </StrictMode>,
    ),
  );
}
