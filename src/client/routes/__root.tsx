import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { BugReportWidget } from '../components/bug-report-widget';
import type { trpcUtils } from '../trpc';

export interface RouterContext {
  queryClient: QueryClient;
  trpcUtils: typeof trpcUtils;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
});

function RootLayout() {
  return (
    <>
      <Outlet />
      <BugReportWidget />
    </>
  );
}
