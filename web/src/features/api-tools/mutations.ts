import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiExchange, type ApiExchange } from '../../lib/api';
import { overviewKeys } from '../overview/api';
import type { ApiCall } from './api';

/** The request log is written once a second (gateway/src/store/request-log.ts): asked for again after that. */
const LOG_WRITTEN_AFTER_MS = 1_500;

/**
 * Sends a call as the admin (the session's cookie, and its CSRF token on a write: lib/api.ts), to
 * this origin only: the path was checked before, and a redirect in the answer is not followed (it
 * could lead to another host), so nothing here reaches anything but this server. The request log
 * is refreshed once the call is in it.
 */
export function useApiCall() {
  const queryClient = useQueryClient();
  return useMutation<ApiExchange, Error, ApiCall & { id?: string }>({
    mutationFn: ({ method, path, body }) => apiExchange(method, path, body, { followRedirects: false }),
    onSettled: () => {
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: overviewKeys.requests }), LOG_WRITTEN_AFTER_MS);
    },
  });
}
