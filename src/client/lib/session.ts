import { redirect, useNavigate } from '@tanstack/react-router';
import { TIMINGS } from '../../shared/limits';
import { isGlobalAdmin } from '../../shared/roles';
import { queryClient } from '../query-client';
import { trpc, trpcUtils, type RouterOutputs } from '../trpc';

export type CurrentUser = NonNullable<RouterOutputs['auth']['me']>;

const ME_OPTIONS = { staleTime: TIMINGS.meStaleMs, retry: 1 } as const;

/** The current user: fresh for 5 minutes, one retry; null when signed out. */
export function useMe() {
  return trpc.auth.me.useQuery(undefined, ME_OPTIONS);
}

/** The same query for guards that run before a page renders. */
export function ensureMe(): Promise<CurrentUser | null> {
  return trpcUtils.auth.me.ensureData(undefined, ME_OPTIONS);
}

/**
 * Guard of the signed-in (or admin-only) routes: the current user, or a redirect to /login that
 * replaces history and carries the address the visitor wanted as returnUrl.
 */
export async function requireSignedIn(href: string, options: { admin?: boolean } = {}): Promise<CurrentUser> {
  const me = await ensureMe();
  if (!me || (options.admin && !isAdmin(me))) {
    throw redirect({ to: '/login', search: { returnUrl: href }, replace: true });
  }
  return me;
}

export function isAdmin(user: CurrentUser | null | undefined): boolean {
  return !!user && isGlobalAdmin(user.roles);
}

/** The signed-in user's role in their current account. */
export function currentAccountOf(user: CurrentUser) {
  return user.accounts.find((a) => a.id === user.currentAccountId) ?? null;
}

/** Everything cached belonged to the old session or account: drop it all. */
function resetCache(): void {
  queryClient.clear();
}

export function useLogout() {
  const navigate = useNavigate();
  return trpc.auth.logout.useMutation({
    onSuccess: async () => {
      resetCache();
      await navigate({ to: '/login', search: {} });
    },
  });
}

/** Switching account goes to the root and resets all cached data (spec section 4). */
export function useSwitchAccount() {
  const navigate = useNavigate();
  return trpc.accounts.switch.useMutation({
    onSuccess: async () => {
      resetCache();
      await navigate({ to: '/' });
    },
  });
}

/** After a sign-in or an accepted invite, the cached "signed out" answer is stale. */
export async function refreshMe(): Promise<void> {
  resetCache();
  await ensureMe();
}
