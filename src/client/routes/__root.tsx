import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { BugReportHost } from '../components/bug-report-widget';
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
    <BugReportHost>
      <Outlet />
    </BugReportHost>
  );
}
