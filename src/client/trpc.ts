import { createTRPCQueryUtils, createTRPCReact } from '@trpc/react-query';
import { httpBatchLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/trpc/app-router';
import { queryClient } from './query-client';

/** Typed hooks over the server's routers; the client knows the server only through this type. */
export const trpc = createTRPCReact<AppRouter>();

export const trpcClient = trpc.createClient({
  links: [httpBatchLink({ url: '/trpc', fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }) })],
});

/** For route loaders and guards, outside React. */
export const trpcUtils = createTRPCQueryUtils({ queryClient, client: trpcClient });

export type RouterOutputs = inferRouterOutputs<AppRouter>;
