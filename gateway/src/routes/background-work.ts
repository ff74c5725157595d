import { serveRoute, ServiceClient, type IdentitySigner } from '@bo/platform';
import { listRuns, listSchedules, runRoutesOf, type RunView, type ScheduleView } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config';
import { serviceNames, serviceUrl, type ServiceName } from '../routing-table';

const SERVICE_TIMEOUT_MS = 3_000;

/**
 * Background work across the system: every service's runs (newest first) and schedules, asked of
 * each service at once. A service that does not answer is named in `unreachable`, so the page says
 * whose work it cannot show rather than showing less without a word. One run, its stream, cancel
 * and retry are the owning service's routes (the id names it), forwarded like any other.
 */
export function registerBackgroundWorkRoutes(app: FastifyInstance, deps: { config: GatewayConfig; signer: IdentitySigner }): void {
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
    const { data, unreachable } = await fromEach<RunView>(service ? [service] : serviceNames, async (client, owner) =>
      (await client.call(runRoutesOf(owner).listRuns, { query: { ...filter, limit } })).data,
    );
    data.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { data: data.slice(0, limit), unreachable };
  });

  serveRoute(app, listSchedules, async () => {
    const { data, unreachable } = await fromEach<ScheduleView>(serviceNames, async (client, owner) => (await client.call(runRoutesOf(owner).listSchedules)).data);
    data.sort((a, b) => a.service.localeCompare(b.service) || a.name.localeCompare(b.name));
    return { data, unreachable };
  });
}
