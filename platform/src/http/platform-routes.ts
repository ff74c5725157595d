import type { FastifyInstance } from 'fastify';
import { platformRoutesOf, type ConfigItem, type DomainServiceName } from '@bo/proto';
import type { EventTransport } from '../events';
import { serveRoute } from './routes';

export interface PlatformRouteDeps {
  service: DomainServiceName;
  transport: EventTransport;
  /** What the config-status page shows for this service. */
  configItems: () => ConfigItem[];
}

/** The routes every domain service answers the same way: its config status and its dead letters. */
export function registerPlatformRoutes(app: FastifyInstance, deps: PlatformRouteDeps): void {
  const routes = platformRoutesOf(deps.service);
  serveRoute(app, routes.configStatus, async () => ({ items: deps.configItems() }));
  serveRoute(app, routes.listDeadLetters, async ({ query }) => ({ data: await deps.transport.listDeadLetters(deps.service, query.limit) }));
  serveRoute(app, routes.replayDeadLetters, async ({ body }) => ({ success: true, replayed: await deps.transport.replayDeadLetters(deps.service, body.ids) }));
}
