/**
 * The routes every service answers for its own runs (proto/src/runs.ts): list and schedules for the
 * gateway's lists, one run, its event stream, cancel and retry.
 */
import type { FastifyInstance } from 'fastify';
import { finishedRunStatuses, runListRoutesOf, runRoutesOf, type DomainServiceName, type RunView, type ServiceName } from '@bo/proto';
import { notFound } from '../errors';
import { adminNameOf, type Identity } from '../identity';
import { endStreamsOnClose, followAsEventStream } from '../http/event-stream';
import { serveRoute } from '../http/routes';
import type { Runs } from './runs';
import type { Scheduler } from './scheduler';

/** How often a stream looks at its run (it may be running in another process). */
const STREAM_POLL_MS = 500;

/** Who did it, as runs record it: `admin:<user>`. */
export const startedByOf = (identity: Identity | null): string => `admin:${adminNameOf(identity)}`;

/** A domain service's lists of its runs and schedules, which the gateway's lists ask for. */
export function registerRunListRoutes(app: FastifyInstance, deps: { service: DomainServiceName; runs: Runs; scheduler: Scheduler }): void {
  const routes = runListRoutesOf(deps.service);
  serveRoute(app, routes.listRuns, async ({ query }) => ({ data: await deps.runs.list(query) }));
  serveRoute(app, routes.listSchedules, async () => ({ data: await deps.scheduler.list() }));
}

/** One run of this process's: the run, its event stream, cancel and retry. */
export function registerRunRoutes(app: FastifyInstance, deps: { service: ServiceName; runs: Runs; streamHeartbeatMs?: number }): void {
  const routes = runRoutesOf(deps.service);
  const { runs } = deps;
  serveRoute(app, routes.getRun, async ({ params }) => runs.get(params.runId));
  serveRoute(app, routes.cancelRun, async ({ params }) => ({ success: true, run: await runs.cancel(params.runId) }));
  serveRoute(app, routes.retryRun, async ({ params, identity }) => ({ success: true, run: await runs.retry(params.runId, startedByOf(identity)) }));

  const open = endStreamsOnClose(app);
  serveRoute(app, routes.runEvents, async ({ params, request, reply }) => {
    let next: RunView | null = await runs.peek(params.runId);
    if (!next) throw notFound('Run not found');
    let sentVersion = -1;
    return followAsEventStream(request, reply, {
      pollMs: STREAM_POLL_MS,
      heartbeatMs: deps.streamHeartbeatMs,
      open,
      async look(stream) {
        if (sentVersion < 0 && /^\d+$/.test(stream.lastEventId)) sentVersion = Number(stream.lastEventId);
        const run = next ?? (await runs.peek(params.runId));
        next = null;
        // Swept meanwhile (finished long ago): nothing more will come.
        if (!run) return stream.end();
        if (run.version > sentVersion) {
          stream.send('progress', run, run.version);
          sentVersion = run.version;
        }
        if (finishedRunStatuses.includes(run.status)) {
          stream.send('end', { status: run.status });
          stream.end();
        }
      },
    });
  });
}
