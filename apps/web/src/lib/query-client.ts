import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@coffer/api-client/api-error';

/**
 * Only a request that got no answer at all (connection lost) is retried, once. Any HTTP
 * answer is final and was already shown by the API client's interceptor: retrying a 403
 * would show its notice twice and hold the page for the retry delay (decision 021).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError) return false;
  if (gotHttpAnswer(error)) return false;
  return failureCount < 1;
}

/** Duck-typed, so the first screen's bundle need not carry axios for this check. */
function gotHttpAnswer(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Boolean((error as { response?: unknown }).response);
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
