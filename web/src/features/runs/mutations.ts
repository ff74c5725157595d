import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import type { CallerOptions } from '../../lib/mutation';
import type { ApiUrl } from '../../lib/paths';
import { runKeys, runPaths, type RunActionReply } from './api';
import { patchCached } from './model';

/**
 * Posts the action; the answer's run goes straight into every list and the run's own answer (the
 * buttons change at once), before those are asked for again.
 */
async function act(queryClient: QueryClient, path: ApiUrl): Promise<RunActionReply> {
  const reply = await apiRequest<RunActionReply>('POST', path);
  if (reply?.run) queryClient.setQueriesData<unknown>({ queryKey: runKeys.all }, (cached: unknown) => patchCached(cached, reply.run));
  return reply;
}

/**
 * A run action: its answer is the run as the action left it, patched in at once (act), so the
 * caller's onSuccess (the toast) does not wait for the lists to be asked for again; they are
 * refreshed behind it.
 */
function useRunAction(path: (id: string) => ApiUrl, refreshes: readonly QueryKey[], options?: CallerOptions<RunActionReply, string>) {
  const queryClient = useQueryClient();
  return useMutation<RunActionReply, Error, string>({
    ...options,
    mutationFn: (id) => act(queryClient, path(id)),
    onSuccess: async (...args) => {
      for (const queryKey of refreshes) void queryClient.invalidateQueries({ queryKey });
      await options?.onSuccess?.(...args);
    },
  });
}

/** Asks a pending or running run to stop: it stops at its next step, within 5 s. */
export const useCancelRun = (options?: CallerOptions<RunActionReply, string>) => useRunAction(runPaths.cancel, [runKeys.all], options);

/** Runs a failed or cancelled run again, from its last completed step (its schedule's row may name it). */
export const useRetryRun = (options?: CallerOptions<RunActionReply, string>) => useRunAction(runPaths.retry, [runKeys.all, runKeys.schedules], options);
