import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import type { ApiUrl } from '../../lib/paths';
import { useInvalidatingMutation, type CallerOptions } from '../../lib/mutation';
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

/** Asks a pending or running run to stop: it stops at its next step, within 5 s. */
export function useCancelRun(options?: CallerOptions<RunActionReply, string>) {
  const queryClient = useQueryClient();
  return useInvalidatingMutation((id: string) => act(queryClient, runPaths.cancel(id)), [runKeys.all], options);
}

/** Runs a failed or cancelled run again, from its last completed step (its schedule's row may name it). */
export function useRetryRun(options?: CallerOptions<RunActionReply, string>) {
  const queryClient = useQueryClient();
  return useInvalidatingMutation((id: string) => act(queryClient, runPaths.retry(id)), [runKeys.all, runKeys.schedules], options);
}
