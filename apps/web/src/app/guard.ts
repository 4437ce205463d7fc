import type { QueryClient } from '@tanstack/react-query';
import { ErrorCode } from '@coffer/contract/errors';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { isApiError } from '../lib/api-error';
import { clearSession } from '../lib/session';
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
    // Loaded here, not at the top: public pages (the landing page among them) then start
    // without the HTTP client in their bundle.
    const { refreshCurrentUser } = await import('../lib/current-user');
    try {
      await refreshCurrentUser(queryClient);
    } catch (error) {
      if (isApiError(error, ErrorCode.NOT_SIGNED_IN)) {
        clearSession();
        throw redirect('/login');
      }
      // Transport failures let the page render; it shows its own error state.
    }
    return null;
  };
}
