import type { QueryClient } from '@tanstack/react-query';
import { ErrorCode } from '@coffer/contract/errors';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { isApiError } from '../lib/api-error';
import { clearSession, isSignedIn } from '../lib/session';
import { loginPath } from '../lib/sign-in-return';
import { startProgress } from './progress';
import { recordRoute } from './route-history';
import { needsCurrentUser } from './route-meta';
import { applyDocumentTitle } from './title';

/**
 * The route guard of spec §2, run as the root route's loader so it finishes before the
 * next page renders. Step 5 (ending the progress bar) is a router subscription in router.tsx.
 */
export function createGuard(queryClient: QueryClient) {
  return async function guard({ request }: LoaderFunctionArgs) {
    startProgress();
    const url = new URL(request.url);
    applyDocumentTitle(url.pathname, url.search);
    recordRoute(url.pathname + url.search);
    if (!needsCurrentUser(url.pathname)) return null;
    const target = url.pathname + url.search;
    // Never signed in (no token): straight to sign-in, quietly. Asking the server would only
    // answer 2001 and put up a red "not signed in" pop-up for a tap on Me (issue 9 item 3).
    if (!isSignedIn()) throw redirect(loginPath(target));
    // Loaded here, not at the top: public pages (the landing page among them) then start
    // without the HTTP client in their bundle.
    try {
      const { refreshCurrentUser } = await import('../lib/current-user');
      await refreshCurrentUser(queryClient);
    } catch (error) {
      if (isApiError(error, ErrorCode.NOT_SIGNED_IN)) {
        clearSession();
        throw redirect(loginPath(target));
      }
      // Transport failures (the module's chunk or the request) let the page render inside
      // the frame; it shows its own error state, or the in-frame retry when its chunk fails.
    }
    return null;
  };
}
