import { Outlet, createFileRoute } from '@tanstack/react-router';
import { LoadingSplash } from '../components/loading-splash';
import { NotFoundContent } from '../components/not-found';
import { requireSignedIn, useMe } from '../lib/session';
import { AdminShell } from '../shell/admin-shell';

/** The admin area: anyone not signed in, or not a global admin, goes to /login. */
export const Route = createFileRoute('/admin')({
  beforeLoad: async ({ location }) => ({ me: await requireSignedIn(location.href, { admin: true }) }),
  pendingComponent: LoadingSplash,
  pendingMs: 0,
  component: AdminLayout,
  // An unknown admin address is drawn in this layout's outlet: inside the admin shell, and no other.
  notFoundComponent: NotFoundContent,
});

function AdminLayout() {
  const { data: me } = useMe();
  const initial = Route.useRouteContext({ select: (c) => c.me });
  return (
    <AdminShell user={me ?? initial}>
      <Outlet />
    </AdminShell>
  );
}
