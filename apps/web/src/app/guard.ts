import { type LoaderFunctionArgs, redirect } from 'react-router';
import { clearSession, isSignedIn } from '../lib/session';
import { loginPath } from '../lib/sign-in-return';
import { startProgress } from './progress';
import { recordRoute } from './route-history';
import { needsCurrentUser } from '../lib/route-meta';
import { applyDocumentTitle } from './title';

/**
 * The route guard of docs/product.md §2, run as the root route's loader so it finishes before the
 * next page renders. Step 5 (ending the progress bar) is a router subscription in router.tsx.
 */
export function createGuard() {
  return async function guard({ request }: LoaderFunctionArgs) {
    startProgress();
    const url = new URL(request.url);
    applyDocumentTitle(url.pathname, url.search);
    recordRoute(url.pathname + url.search);
    if (!needsCurrentUser(url.pathname)) return null;
    const target = url.pathname + url.search;
    // Never signed in (no token): straight to sign-in, quietly. Asking the server would only
    // answer 2001 and put up a red "not signed in" pop-up for a tap on Me (decision 021).
    if (!isSignedIn()) throw redirect(loginPath(target));
    // Loaded here, not at the top: public pages (the landing page among them) then start
    // without the HTTP client, TanStack Query or the error codes in their bundle.
    let modules: [typeof import('../lib/current-user'), typeof import('../lib/query-client')];
    try {
      modules = await Promise.all([import('../lib/current-user'), import('../lib/query-client')]);
    } catch {
      // Their chunks did not arrive: the page renders inside the frame, with its own error
      // state or the in-frame retry when its chunk fails too.
      return null;
    }
    const [{ refreshCurrentUser, isNotSignedIn }, { queryClient }] = modules;
    try {
      await refreshCurrentUser(queryClient);
    } catch (error) {
      if (isNotSignedIn(error)) {
        clearSession();
        throw redirect(loginPath(target));
      }
      // Transport failures let the page render inside the frame; it shows its own error state.
    }
    return null;
  };
}
