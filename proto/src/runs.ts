/**
 * Background runs and schedules as data (docs/background-work.md): what a run looks like to the
 * admin API and the dashboard, the progress event every run-owning service publishes, and the
 * routes each service answers for its own runs. A run's public id names its owner
 * (`shop-sync.5b0e…`), so the gateway routes `/api/admin/runs/:id` by the id alone.
 */
import { z } from 'zod';
import { defineEvent, type EventDefinition } from './envelope';
import { defineRoute, successReply } from './http/contract';
import type { DomainServiceName, ServiceName } from './services';

export const runStatuses = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];
/** A run in one of these never changes again (its stream ends). */
export const finishedRunStatuses: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];

const counters = z.record(z.string(), z.number());

export const runSchema = z.object({
  /** `<service>.<uuid>`. */
  id: z.string(),
  service: z.string(),
  kind: z.string(),
  status: z.enum(runStatuses),
  progress: z.object({ current: z.number().int(), total: z.number().int().nullable(), counters }),
  lastError: z.string().nullable(),
  /** `admin:<username>`, `schedule:<name>`, `event:<name>` or `system`. */
  startedBy: z.string(),
  schedule: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  cancelRequested: z.boolean(),
  /** Grows with every change; a stream's event id. */
  version: z.number().int(),
  /** The steps completed so far, oldest first (a resumed run skips them). */
  steps: z.array(z.object({ name: z.string(), completedAt: z.string() })),
  /** What the run's code returned (JSON), null until it completed. */
  result: z.unknown(),
});
export type RunView = z.infer<typeof runSchema>;

/** The row id in the owning service's `runs` table of a public run id (`shop-sync.<uuid>` → `<uuid>`). */
export const runRowId = (publicId: string): string => publicId.slice(publicId.indexOf('.') + 1);

export const scheduleSchema = z.object({
  name: z.string(),
  service: z.string(),
  /** A node-cron expression (5 fields, or 6 with seconds first). */
  expression: z.string(),
  runKind: z.string(),
  lastTickAt: z.string().nullable(),
  lastRunId: z.string().nullable(),
  nextRunAt: z.string().nullable(),
});
export type ScheduleView = z.infer<typeof scheduleSchema>;

const exampleRun: RunView = {
  id: 'shop-sync.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10',
  service: 'shop-sync',
  kind: 'woocommerce-sync',
  status: 'in_progress',
  progress: { current: 120, total: 400, counters: { updated: 118, failed: 2 } },
  lastError: null,
  startedBy: 'admin:owner',
  schedule: null,
  attempts: 1,
  createdAt: '2026-11-26T08:00:00.000Z',
  startedAt: '2026-11-26T08:00:00.050Z',
  completedAt: null,
  cancelRequested: false,
  version: 7,
  steps: [{ name: 'read-sheet', completedAt: '2026-11-26T08:00:01.000Z' }],
  result: null,
};

/** What `<service>.run.progress` carries: the run as the admin API shows it, less its steps and result. */
export const runProgressPayload = runSchema.omit({ steps: true, result: true }).extend({ runId: z.string() });
export type RunProgress = z.infer<typeof runProgressPayload>;

const progressEvents = new Map<string, EventDefinition<typeof runProgressPayload>>();

/** `<service>.run.progress`: a run started, moved or ended (the scraper's is the design's "scrape progress"). */
export function runProgressEventOf(service: ServiceName): EventDefinition<typeof runProgressPayload> {
  let event = progressEvents.get(service);
  if (!event) {
    const { steps: _steps, result: _result, ...progress } = exampleRun;
    event = defineEvent({
      name: `${service}.run.progress`,
      version: 1,
      payload: runProgressPayload,
      entity: { name: 'run', key: 'runId', revision: 'version' },
      example: { ...progress, id: `${service}.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10`, runId: `${service}.0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10`, service },
    });
    progressEvents.set(service, event);
  }
  return event;
}

export const runListQuery = z.object({
  service: z.string().optional(),
  kind: z.string().max(100).optional(),
  status: z.enum(runStatuses).optional(),
  /** `true`: leave out a schedule's runs that completed (reconciliation every 30 s would bury the rest); its failed ones stay. */
  hideCompletedScheduled: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const runIdParam = z.object({ runId: z.uuid({ error: 'Run id is not valid' }) });

const exampleOf = (owner: ServiceName): RunView => ({ ...exampleRun, id: `${owner}.${exampleRun.id.split('.')[1]}`, service: owner });

/**
 * The internal lists a domain service answers for the gateway's lists across every service
 * (gateway-routes.ts), which asks each service at once.
 */
export function runListRoutesOf(owner: DomainServiceName) {
  const listRuns = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/runs`,
    access: 'internal',
    callers: ['gateway'],
    query: runListQuery.omit({ service: true }),
    reply: z.object({ data: z.array(runSchema) }),
    summary: `The ${owner} service's latest runs, newest first`,
    category: 'Background work',
    example: { query: { limit: 50 }, reply: { data: [exampleOf(owner)] } },
  });
  const listSchedules = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/schedules`,
    access: 'internal',
    callers: ['gateway'],
    reply: z.object({ data: z.array(scheduleSchema) }),
    summary: `The ${owner} service's schedules`,
    category: 'Background work',
    example: { reply: { data: [] } },
  });
  return { listRuns, listSchedules };
}

/**
 * The routes a process answers for its own runs. They carry the owner in the path
 * (`/api/admin/runs/<service>.<uuid>`), so the gateway's table routes them like any other route
 * (and the gateway answers its own).
 */
export function runRoutesOf(owner: ServiceName) {
  const at = `/api/admin/runs/${owner}.:runId`;
  const example = exampleOf(owner);
  const getRun = defineRoute({
    owner,
    method: 'GET',
    path: at,
    access: 'admin',
    params: runIdParam,
    reply: runSchema,
    summary: `One run of the ${owner} service, with its steps`,
    category: 'Background work',
    example: { params: { runId: '0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10' }, reply: example },
  });
  const runEvents = defineRoute({
    owner,
    method: 'GET',
    path: `${at}/events`,
    access: 'admin',
    params: runIdParam,
    reply: z.string(),
    replyKind: 'stream',
    summary: `Server-sent events of one ${owner} run: "progress" with the run at each change (id: its version; Last-Event-ID resumes), a comment every 15 s, "end" when it finishes`,
    category: 'Background work',
    example: { params: { runId: '0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10' }, reply: `id: 7\nevent: progress\ndata: {"id":"${owner}.0b7c…"}\n\n` },
  });
  const cancelRun = defineRoute({
    owner,
    method: 'POST',
    path: `${at}/cancel`,
    access: 'admin',
    params: runIdParam,
    reply: successReply.extend({ run: runSchema }),
    summary: `Cancel a pending or running ${owner} run: it stops at its next step, within 5 s`,
    category: 'Background work',
    example: { params: { runId: '0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10' }, reply: { success: true, run: { ...example, cancelRequested: true } } },
  });
  const retryRun = defineRoute({
    owner,
    method: 'POST',
    path: `${at}/retry`,
    access: 'admin',
    params: runIdParam,
    reply: successReply.extend({ run: runSchema }),
    summary: `Run a failed or cancelled ${owner} run again, from its last completed step`,
    category: 'Background work',
    example: { params: { runId: '0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10' }, reply: { success: true, run: { ...example, status: 'pending' } } },
  });
  return { getRun, runEvents, cancelRun, retryRun };
}
