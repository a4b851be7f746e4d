import { Outlet, createFileRoute } from '@tanstack/react-router';
import { LoadingSplash } from '../components/loading-splash';
import { NotFoundContent } from '../components/not-found';
import { useHubConnection } from '../lib/hub';
import { requireSignedIn, useMe } from '../lib/session';
import { WorkspaceShell } from '../shell/app-shell';

/**
 * Every signed-in page: a splash while the user is unknown, then the shell; signed-out visitors
 * go to /login with the current address as returnUrl, replacing this history entry.
 */
export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ location }) => ({ me: await requireSignedIn(location.href) }),
  pendingComponent: LoadingSplash,
  pendingMs: 0,
  component: AppLayout,
  // An unknown address below a workspace page is drawn in this layout's outlet: inside the shell already.
  notFoundComponent: NotFoundContent,
});

function AppLayout() {
  const { data: me } = useMe();
  const initial = Route.useRouteContext({ select: (c) => c.me });
  // Live events (the bell's ReceiveNotification) arrive on every signed-in page.
  useHubConnection('notifications');
  return (
    <WorkspaceShell user={me ?? initial}>
      <Outlet />
    </WorkspaceShell>
  );
}
