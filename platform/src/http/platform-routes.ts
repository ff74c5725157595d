import type { FastifyInstance } from 'fastify';
import { platformRoutesOf, type ConfigItem, type DomainServiceName } from '@bo/proto';
import { listFailedOutbox, retryFailedOutbox, type EventTransport, type SqlClient } from '../events';
import { serveRoute } from './routes';

export interface PlatformRouteDeps {
  service: DomainServiceName;
  /** The service's schema and database, where its outbox lives. */
  schema: string;
  db: SqlClient;
  transport: EventTransport;
  /** What the config-status page shows for this service. */
  configItems: () => ConfigItem[] | Promise<ConfigItem[]>;
}

/** The routes every domain service answers the same way: its config status, dead letters and failed events. */
export function registerPlatformRoutes(app: FastifyInstance, deps: PlatformRouteDeps): void {
  const routes = platformRoutesOf(deps.service);
  serveRoute(app, routes.configStatus, async () => ({ items: await deps.configItems() }));
  serveRoute(app, routes.listDeadLetters, async ({ query }) => ({ data: await deps.transport.listDeadLetters(deps.service, query.limit) }));
  serveRoute(app, routes.replayDeadLetters, async ({ body }) => ({ success: true, replayed: await deps.transport.replayDeadLetters(deps.service, body.ids) }));
  serveRoute(app, routes.listFailedEvents, async ({ query }) => ({ data: await listFailedOutbox(deps.db, deps.schema, query.limit) }));
  serveRoute(app, routes.retryFailedEvents, async ({ body }) => ({ success: true, retried: await retryFailedOutbox(deps.db, deps.schema, body.ids) }));
}
