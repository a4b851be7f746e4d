import { Outlet, createFileRoute, redirect } from '@tanstack/react-router';
import { LoadingSplash } from '../components/loading-splash';
import { ensureMe, isAdmin, useMe } from '../lib/session';
import { AdminShell } from '../shell/admin-shell';

/** The admin area: anyone not signed in, or not a global admin, goes to /login. */
export const Route = createFileRoute('/admin')({
  beforeLoad: async ({ location }) => {
    const me = await ensureMe();
    if (!me || !isAdmin(me)) throw redirect({ to: '/login', search: { returnUrl: location.href }, replace: true });
    return { me };
  },
  pendingComponent: LoadingSplash,
  pendingMs: 0,
  component: AdminLayout,
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
