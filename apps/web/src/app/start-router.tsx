import { StrictMode, startTransition } from 'react';
import { flushSync } from 'react-dom';
import type { Root } from 'react-dom/client';
import { Link, NavLink } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { type RouterLinks, RouterLinksContext } from '../lib/nav';
import { createAppRouter } from './router';

/** The app's links are react-router's own once the router is there (lib/nav.tsx). */
const routerLinks: RouterLinks = { Link, NavLink };

/**
 * Creates the router and renders it into `root` once its first location is ready (the guard
 * has run and the page's chunk is in), so what was on screen (the boot screen, or the
 * landing page that main.tsx rendered without the router) stays until the router's page
 * replaces it in one commit. `target` is given by the landing page when it hands over (on its
 * first link click, app/landing.tsx); when it names a path the router opens it first.
 */
export async function startRouter(root: Root, target?: () => string | undefined): Promise<void> {
  const fromLanding = target !== undefined;
  const router = createAppRouter();
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const unsubscribe = router.subscribe((state) => {
        if (!state.initialized) return;
        unsubscribe();
        resolve();
      });
    });
  }
  const tree = (
    <StrictMode>
      <RouterLinksContext.Provider value={routerLinks}>
        <RouterProvider router={router} />
      </RouterLinksContext.Provider>
    </StrictMode>
  );
  // Over the boot screen (a first open of any page but the signed-out landing one): in a
  // transition, so React renders the page in slices that yield to the browser instead of one
  // long task (the boot screen stays meanwhile), as the landing page does (decision 032, 057).
  if (!fromLanding) {
    startTransition(() => root.render(tree));
    return;
  }
  const to = target?.();
  if (to !== undefined) await router.navigate(to);
  // A link focused on the landing page (a tab reached by keyboard) is a new element now: the
  // focus moves to its counterpart, as it stays on the tab when the router switches tabs.
  const focused = document.activeElement instanceof HTMLAnchorElement ? document.activeElement.getAttribute('href') : null;
  flushSync(() => root.render(tree));
  // The old element is gone, so the focus fell back to the body.
  if (focused && document.activeElement === document.body) {
    const counterpart = [...document.querySelectorAll('a')].find((link) => link.getAttribute('href') === focused);
    counterpart?.focus({ preventScroll: true });
  }
}
