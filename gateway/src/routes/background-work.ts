import { serveRoute, ServiceClient, type IdentitySigner } from '@bo/platform';
import type { AuditLog } from '@bo/platform/audit';
import type { Runs, Scheduler } from '@bo/platform/runs';
import { alertRoutesOf, auditCursorOf, compareAlerts, auditRoutesOf, compareAuditEntries, listAlerts, listAudit, type AuditEntryView, listRuns, listSchedules, runListRoutesOf, type AlertView, type RunView, type ScheduleView } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';

const SERVICE_TIMEOUT_MS = 3_000;

/**
 * Background work across the system: every service's runs (newest first), schedules, alerts and audit entries, asked of
 * each service at once, with the gateway's own. A service that does not answer is named in
 * `unreachable`, so the page says whose work it cannot show rather than showing less without a
 * word. One run, its stream, cancel and retry are the owning process's routes (the id names it).
 */
export function registerBackgroundWorkRoutes(app: FastifyInstance, deps: { config: GatewayConfig; signer: IdentitySigner; runs: Runs; scheduler: Scheduler; auditLog: AuditLog }): void {
  const clientOf = (service: ServiceName) => new ServiceClient({ baseUrl: serviceUrl(deps.config, service), signer: deps.signer, timeoutMs: SERVICE_TIMEOUT_MS });

  async function fromEach<T>(services: readonly ServiceName[], ask: (client: ServiceClient, service: ServiceName) => Promise<T[]>) {
    const answers = await Promise.all(services.map((service) => ask(clientOf(service), service).then((data) => ({ service, data }), () => ({ service, data: null }))));
    return {
      data: answers.flatMap((answer) => answer.data ?? []),
      unreachable: answers.filter((answer) => answer.data === null).map((answer) => answer.service),
    };
  }

  serveRoute(app, listRuns, async ({ query }) => {
    const { service, limit, ...filter } = query;
    const asked = { ...filter, hideCompletedScheduled: filter.hideCompletedScheduled ? ('true' as const) : ('false' as const), limit };
    const { data, unreachable } = await fromEach<RunView>(service === undefined ? serviceNames : service === 'gateway' ? [] : [service], async (client, owner) =>
      (await client.call(runListRoutesOf(owner).listRuns, { query: asked })).data,
    );
    if (service === undefined || service === 'gateway') data.push(...(await deps.runs.list({ ...filter, limit })));
    data.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { data: data.slice(0, limit), unreachable };
  });

  serveRoute(app, listSchedules, async () => {
    const { data, unreachable } = await fromEach<ScheduleView>(serviceNames, async (client, owner) => (await client.call(runListRoutesOf(owner).listSchedules)).data);
    data.push(...(await deps.scheduler.list()));
    data.sort((a, b) => a.service.localeCompare(b.service) || a.name.localeCompare(b.name));
    return { data, unreachable };
  });

  serveRoute(app, listAlerts, async ({ query }) => {
    const { data, unreachable } = await fromEach<AlertView>(serviceNames, async (client, owner) => (await client.call(alertRoutesOf(owner).listAlerts, { query })).data);
    data.sort(compareAlerts);
    return { data: data.slice(0, query.limit), unreachable };
  });

  serveRoute(app, listAudit, async ({ query }) => {
    const answers = await fromEach<AuditEntryView[]>(serviceNames, async (client, owner) => [(await client.call(auditRoutesOf(owner).listAudit, { query })).data]);
    answers.data.push(await deps.auditLog.list(query));
    // Each source gave its first `limit` entries after the cursor: the first `limit` of them all are
    // the page. There may be more while any source gave as many as asked for.
    const data = answers.data.flat().sort(compareAuditEntries);
    const page = data.slice(0, query.limit);
    const more = answers.data.some((entries) => entries.length === query.limit);
    return { data: page, nextBefore: more && page.length > 0 ? auditCursorOf(page[page.length - 1]!) : null, unreachable: answers.unreachable };
  });
}
