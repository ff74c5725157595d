import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';
import { apiRequest, forgetCsrfToken } from './api';
import { queryKeys } from './query-keys';
import type { SheetRowUpdate, SheetUpdateReply } from './types';

type CallerOptions<TData, TVariables> = Omit<UseMutationOptions<TData, Error, TVariables>, 'mutationFn'>;

/**
 * A mutation that always refreshes the queries it affects: the invalidation runs (and is awaited)
 * before the caller's own onSuccess, which therefore cannot switch it off.
 */
function useInvalidatingMutation<TData, TVariables>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  invalidates: readonly QueryKey[],
  options: CallerOptions<TData, TVariables> = {},
) {
  const queryClient = useQueryClient();
  return useMutation<TData, Error, TVariables>({
    ...options,
    mutationFn,
    onSuccess: async (...args) => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await options.onSuccess?.(...args);
    },
  });
}

export const useClearCache = (options?: CallerOptions<unknown, void>) =>
  useInvalidatingMutation(
    () => apiRequest('POST', '/api/cache/invalidate'),
    [queryKeys.cacheStatus.all, queryKeys.prices.all],
    options,
  );

export const useUpdateSheetRow = (options?: CallerOptions<SheetUpdateReply, SheetRowUpdate>) =>
  useInvalidatingMutation(
    (row: SheetRowUpdate) => apiRequest<SheetUpdateReply>('POST', '/api/sheets/update', row),
    [queryKeys.prices.all, queryKeys.cacheStatus.all],
    options,
  );

export interface AdminCredentials {
  username: string;
  password: string;
}

/** Signing in starts a new session, so the CSRF token of the old one is dropped first. */
export const useAdminLogin = (options?: CallerOptions<unknown, AdminCredentials>) =>
  useInvalidatingMutation(
    async (credentials: AdminCredentials) => {
      const reply = await apiRequest('POST', '/api/admin/login', credentials);
      forgetCsrfToken();
      return reply;
    },
    [queryKeys.authUser.all],
    options,
  );
