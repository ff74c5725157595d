import { Readable } from 'node:stream';
import { migrationRoutesOf, type DomainServiceName } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database';
import { serveRoute } from '../http/routes';
import { exportLines } from './export';
import { importRows } from './import';
import type { ExportPolicy } from './tables';

/** A service's part of the database export and import, for the gateway's /api/migration routes. */
export function registerMigrationRoutes(app: FastifyInstance, deps: { service: DomainServiceName; schema: string; database: Database; policy: ExportPolicy }): void {
  const routes = migrationRoutesOf(deps.service);
  serveRoute(app, routes.exportData, async ({ reply }) => {
    reply.type('application/x-ndjson; charset=utf-8');
    return reply.send(Readable.from(exportLines(deps.database, deps.schema, deps.policy)));
  });
  serveRoute(app, routes.importData, async ({ body }) => importRows(deps.database, deps.schema, deps.policy, body));
}
