/**
 * The routes every service answers for its own runs (proto/src/runs.ts): list and schedules for the
 * gateway's lists, one run, its event stream, cancel and retry.
 */
import type { FastifyInstance } from 'fastify';
import { finishedRunStatuses, runListRoutesOf, runRoutesOf, type DomainServiceName, type RunView, type ServiceName } from '@bo/proto';
import { notFound } from '../errors';
import type { Identity } from '../identity';
import { serveRoute } from '../http/routes';
import type { Runs } from './runs';
import type { Scheduler } from './scheduler';

/** A browser's stream gets a comment this often, so proxies and the browser keep it open. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** How often a stream looks at its run (it may be running in another process). */
const STREAM_POLL_MS = 500;

/** Who did it, as runs record it: `admin:<user>`. */
export const startedByOf = (identity: Identity | null): string => `admin:${identity?.email ?? identity?.userId ?? 'unknown'}`;

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

  const open = new Set<() => void>();
  // A stream never ends by itself while its run goes on: end them all so the server can close.
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });
  serveRoute(app, routes.runEvents, async ({ params, request, reply }) => {
    const first = await runs.peek(params.runId);
    if (!first) throw notFound('Run not found');
    const lastEventId = String(request.headers['last-event-id'] ?? '').trim();
    let sentVersion = /^\d+$/.test(lastEventId) ? Number(lastEventId) : -1;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    let ended = false;
    let poll: NodeJS.Timeout | undefined;
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), deps.streamHeartbeatMs ?? STREAM_HEARTBEAT_MS);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(poll);
      open.delete(end);
      raw.end();
    };
    open.add(end);
    raw.on('close', end);
    const send = (run: RunView) => {
      if (ended) return;
      if (run.version > sentVersion) {
        raw.write(`id: ${run.version}\nevent: progress\ndata: ${JSON.stringify(run)}\n\n`);
        sentVersion = run.version;
      }
      if (finishedRunStatuses.includes(run.status)) {
        raw.write(`event: end\ndata: ${JSON.stringify({ status: run.status })}\n\n`);
        end();
      }
    };
    let unreadable = false;
    const look = async () => {
      if (ended) return;
      try {
        const run = await runs.peek(params.runId);
        unreadable = false;
        // Swept meanwhile (finished long ago): nothing more will come.
        if (!run) return end();
        send(run);
      } catch (error) {
        // The database is down for a moment: the stream waits and looks again (one log line per outage).
        if (!unreadable) request.log.warn({ err: error }, 'run stream could not read its run');
        unreadable = true;
      }
      if (!ended) poll = setTimeout(() => void look(), STREAM_POLL_MS);
    };
    send(first);
    if (!ended) poll = setTimeout(() => void look(), STREAM_POLL_MS);
    return reply;
  });
}
