import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';

/**
 * Business refusals (ApiError) are final and already shown to the user, so only
 * transport failures are retried, once.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => !(error instanceof ApiError) && failureCount < 1,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
