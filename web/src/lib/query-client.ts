import { MutationCache, QueryCache, QueryClient, type Query } from '@tanstack/react-query';
import { authKeys } from '../features/auth/api';
import { defaultQueryFn, statusOf } from './api';
import type { ApiKey } from './paths';

declare module '@tanstack/react-query' {
  /** Every query key is made by apiKey (lib/paths.ts): checked against the route contracts. */
  interface Register {
    queryKey: ApiKey;
  }
}

/**
 * Document 1, section 9: data never goes stale, no refetch on focus, no polling, no retries.
 * A 401 from any call means the session may have ended (expired, logged out elsewhere): the
 * signed-in user is asked for again, and if that is a 401 too the guard sends the user to /login
 * and back here afterwards.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => checkSessionAfter(error, query) }),
    mutationCache: new MutationCache({ onError: (error) => checkSessionAfter(error) }),
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });

  function checkSessionAfter(error: unknown, query?: Query<unknown, unknown, unknown>): void {
    if (statusOf(error) !== 401) return;
    // The user query's own 401 is the answer itself; asking again would loop.
    if (query && query.queryHash === JSON.stringify(authKeys.user)) return;
    if (!client.getQueryData(authKeys.user)) return; // nobody was signed in: nothing ended
    void client.invalidateQueries({ queryKey: authKeys.user, exact: true });
  }
  return client;
}
