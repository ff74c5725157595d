import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, forgetCsrfToken, statusOf } from '../../lib/api';
import { authKeys, authPaths, type AdminCredentials, type AuthUser } from './api';

/**
 * The signed-in user: fresh for 5 minutes, one retry (document 1, section 7), but never a retry of
 * a 401: "not signed in" is an answer, and retrying it only keeps /login blank for a second.
 */
export const authUserQuery = queryOptions<AuthUser>({
  queryKey: authKeys.user,
  staleTime: 5 * 60_000,
  retry: (failures, error) => statusOf(error) !== 401 && failures < 1,
});

export const useAuthUser = () => useQuery(authUserQuery);

export type Session = { state: 'checking' } | { state: 'signed-out' } | { state: 'signed-in'; user: AuthUser };

/** A failed check (even one that still holds an older answer) means signed out. */
export function useSession(): Session {
  const { data, isPending, isError } = useAuthUser();
  if (isPending) return { state: 'checking' };
  if (isError || !data) return { state: 'signed-out' };
  return { state: 'signed-in', user: data };
}

/** Signing in starts a new session: the CSRF token of the old one is dropped and the user read again. */
export function useAdminLogin(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation<unknown, Error, AdminCredentials>({
    mutationFn: async (credentials) => {
      const reply = await apiRequest('POST', authPaths.passwordLogin, credentials);
      forgetCsrfToken();
      return reply;
    },
    onSuccess: async () => {
      await queryClient.refetchQueries({ queryKey: authKeys.user });
      options.onSuccess?.();
    },
  });
}
