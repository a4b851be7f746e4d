import { MutationCache, QueryClient } from '@tanstack/react-query';
import { TIMINGS } from '../shared/limits';
import { showErrorSnackbar } from './components/error-snackbar';
import { errorMessage } from './lib/error-message';

/**
 * Defaults of spec section 9: data stale after 10 minutes, cache kept 5 minutes, one retry,
 * no refetch on focus. Any failed mutation shows the error snackbar unless it opts out with
 * `meta: { silent: true }` because the screen shows the error itself.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: TIMINGS.queryStaleMs,
      gcTime: TIMINGS.cacheLifetimeMs,
      retry: 1,
      refetchOnWindowFocus: false,
    },
  },
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (mutation.meta?.silent) return;
      showErrorSnackbar(errorMessage(error), error);
    },
  }),
});
