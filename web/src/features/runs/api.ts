/** The background-work calls. Their shapes are the route contracts' (types only: no zod in the bundle). */
import type { listRuns, listSchedules, ReplyOf, RunStatus, RunView, ServiceName } from '@bo/proto';
import { apiKey, queryString, type ApiUrl } from '../../lib/paths';

export type { RunStatus, RunView, ScheduleView } from '@bo/proto';

export type RunsReply = ReplyOf<typeof listRuns>;
export type SchedulesReply = ReplyOf<typeof listSchedules>;
/** Cancel and retry answer the run as it is now. */
export type RunActionReply = { success: boolean; run: RunView };

/** How many runs the table lists. */
export const RUNS_SHOWN = 50;

export interface RunFilters {
  service?: string;
  status?: RunStatus;
  kind?: string;
  /** A schedule's completed runs are left out unless asked for: reconciliation alone makes two a minute. */
  showCompletedScheduled?: boolean;
}

/**
 * A key joined with slashes is the GET path; every key starts with the list's path, so
 * invalidating `runKeys.all` refreshes the lists and every run's own answer.
 */
export const runKeys = {
  all: apiKey('/api/admin/runs'),
  list: ({ service, status, kind, showCompletedScheduled }: RunFilters) =>
    apiKey(
      '/api/admin/runs',
      queryString({ service: service || undefined, status: status || undefined, kind: kind?.trim() || undefined, hideCompletedScheduled: showCompletedScheduled ? undefined : 'true', limit: RUNS_SHOWN }),
    ),
  run: (id: string) => apiKey('/api/admin/runs', encodeURIComponent(id) as RunPathId),
  schedules: apiKey('/api/admin/schedules'),
} as const;

/** A run's id in a path: `<service>.<uuid>`, the owner's route `/api/admin/runs/<service>.:runId`. */
type RunPathId = `${ServiceName}.${string}`;

/** A run's own routes: its id, `<service>.<uuid>`, is the owner's route (`/api/admin/runs/<service>.:runId`). */
const runPath = (id: string, action = '') => `/api/admin/runs/${encodeURIComponent(id)}${action}` as ApiUrl;

export const runPaths = {
  events: (id: string) => runPath(id, '/events'),
  cancel: (id: string) => runPath(id, '/cancel'),
  retry: (id: string) => runPath(id, '/retry'),
} as const;

/**
 * While a listed run is pending or in progress the list is asked for again every 2 s: simpler than
 * one event stream per row, and 50 rows from every service every 2 s is a small read. The run a
 * user opens is followed by its own event stream (useRunEvents) as well, and its own answer (for
 * its steps, which progress events do not carry) at the same pace. Durations tick each second.
 */
export const runPolling = { activeList: 2_000, clock: 1_000 } as const;
