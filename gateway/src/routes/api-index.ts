import { serveRoute } from '@bo/platform';
import { apiIndex, openApiDocument, systemInfo } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import { buildGatewayOpenApiDocument } from '../domain/openapi';

/**
 * What the API offers: `/api` names it and points at the OpenAPI document, which is built once
 * from the contracts. The runtime version is for signed-in admins only (the sidebar shows it).
 */
export function registerApiIndexRoutes(app: FastifyInstance): void {
  const document = buildGatewayOpenApiDocument();
  serveRoute(app, apiIndex, async () => ({ name: 'Back-office API', openapi: openApiDocument.path }));
  serveRoute(app, openApiDocument, async () => document as unknown as Record<string, unknown>);
  serveRoute(app, systemInfo, async () => ({ runtime: { node: process.version } }));
}
