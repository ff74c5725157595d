import type { FastifyInstance } from 'fastify';
import { endStreamsOnClose, followAsEventStream, notFound, serveRoute } from '@bo/platform';
import { startedByOf } from '@bo/platform/runs';
import { cancelScrapeJob, listScrapeJobs, resumeScrapeJob, scrapeJobProgress, startScrape } from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import type { ScrapeJobs } from '../operations/scrape-jobs';
import { ENDING_EVENT_OF, jobStore } from '../store/job-store';

/** How often a progress stream looks for its job's new events (its pages may run on any replica). */
const STREAM_POLL_MS = 250;
const ENDING_EVENTS = new Set<string>(Object.values(ENDING_EVENT_OF));

/** The Jobs tab, its Scrape Now dialog and the Scraping Progress dialog's stream. */
export function registerJobRoutes(app: FastifyInstance, { prisma, jobs, streamHeartbeatMs }: { prisma: PrismaClient; jobs: ScrapeJobs; streamHeartbeatMs?: number }): void {
  serveRoute(app, startScrape, async ({ params, body, identity }) => {
    const job = await jobs.start(params.marketplaceId, body, startedByOf(identity));
    return { success: true, jobId: job.id, data: job };
  });

  serveRoute(app, listScrapeJobs, async ({ query }) => ({ success: true, data: await jobStore.list(prisma, query.limit) }));

  serveRoute(app, cancelScrapeJob, async ({ params }) => ({ success: true, data: await jobs.cancel(params.id) }));

  serveRoute(app, resumeScrapeJob, async ({ params, identity }) => ({ success: true, data: await jobs.resume(params.id, startedByOf(identity)) }));

  /**
   * Document 2 §4's events: init with the job, then each event as its page's transaction wrote it
   * (id: its number, so Last-Event-ID resumes where the browser lost it), until the job ends. A job
   * that has already ended answers init and its ending event.
   */
  const open = endStreamsOnClose(app);
  serveRoute(app, scrapeJobProgress, async ({ params, request, reply }) => {
    const start = await jobStore.snapshot(prisma, params.id);
    if (!start) throw notFound('Job not found');
    let after: bigint | null = null;
    return followAsEventStream(request, reply, {
      pollMs: STREAM_POLL_MS,
      heartbeatMs: streamHeartbeatMs,
      open,
      async look(stream) {
        const { job } = start;
        const ended = job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';
        if (after === null) {
          const asked = /^\d{1,18}$/.test(stream.lastEventId) ? BigInt(stream.lastEventId) : null;
          if (asked === null) stream.send('init', job);
          // Nothing this job wrote is past its last event (an id from elsewhere resumes from there).
          after = asked !== null && asked < start.lastEventId ? asked : start.lastEventId;
        }
        for (const event of await jobStore.eventsAfter(prisma, params.id, after)) {
          stream.send(event.type, event.data, String(event.id));
          after = event.id;
          if (ENDING_EVENTS.has(event.type)) return stream.end();
        }
        // Ended before this stream looked (or its ending event was already seen): say so, and close.
        if (ended) {
          stream.send(ENDING_EVENT_OF[job.status as keyof typeof ENDING_EVENT_OF], job);
          stream.end();
        }
      },
    });
  });
}
