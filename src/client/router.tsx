import { createRouter } from '@tanstack/react-router';
import { ErrorFallback } from './components/error-fallback';
import { LoadingSplash } from './components/loading-splash';
import { NotFoundPage } from './components/not-found';
import { checkForNewDeployment } from './lib/deploy-guard';
import { queryClient } from './query-client';
import { routeTree } from './routeTree.gen';
import { trpcUtils } from './trpc';

export const router = createRouter({
  routeTree,
  context: { queryClient, trpcUtils },
  defaultPreload: 'intent',
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: LoadingSplash,
  defaultErrorComponent: ({ error, reset }) => <ErrorFallback error={error} reset={reset} />,
  defaultNotFoundComponent: NotFoundPage,
  scrollRestoration: true,
});

// A new deployment names another main script: reload into it at the next navigation.
router.subscribe('onResolved', () => void checkForNewDeployment());

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
