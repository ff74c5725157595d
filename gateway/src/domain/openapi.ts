import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { allRoutes, type AnyRouteContract } from '@bo/proto';
import { z } from 'zod';

const errorReply = z.object({ error: z.string(), details: z.unknown().optional() });

/** `/api/prices/:product` → `/api/prices/{product}` */
const openApiPath = (path: string) => path.replace(/:([A-Za-z]\w*)/g, '{$1}');

/** `generate-qr` → `GenerateQr`, `email_parser` → `EmailParser`, `runId` → `RunId`. */
const camelWords = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * A route's operationId, derived from its method and path so it never has to be written by hand
 * and changes only when the route does: the method in lower case, then each path segment in
 * camelCase (split at `-`, `_`, `.`), a path parameter as `By<Param>`. The leading `/api` every
 * reachable route shares is left out.
 *
 *   GET  /api/prices                          → getPrices
 *   POST /api/prices/:product                 → postPricesByProduct
 *   POST /api/streaming-keys/generate-qr/:id  → postStreamingKeysGenerateQrById
 *   POST /api/admin/runs/pricing.:runId/retry → postAdminRunsPricingByRunIdRetry
 */
export function operationIdOf(route: Pick<AnyRouteContract, 'method' | 'path'>): string {
  const words = route.path
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .flatMap((segment) => segment.split(/(?=:)/))
    .flatMap((part) => (part.startsWith(':') ? [`By${camelWords(part.slice(1))}`] : [camelWords(part)]));
  return route.method.toLowerCase() + words.join('');
}

/**
 * Who may call an operation, as the OpenAPI extension `x-access` says it (the contract's `access`):
 * `public` anyone; `customer` a signed-in customer (the access check lets an admin through too, but
 * each customer route answers for the customer session's own keys); `admin` a signed-in
 * administrator. Internal routes are never in the document. The dashboard's API tools choose by it
 * what to list for an admin (web/src/features/api-tools/model.ts, adminMayCall).
 */
export type OperationAccess = Exclude<AnyRouteContract['access'], 'internal'>;

const securityOf: Record<AnyRouteContract['access'], Array<Record<string, string[]>>> = {
  public: [],
  customer: [{ session: [] }],
  admin: [{ session: [] }],
  internal: [],
};

type MediaTypes = (schema: z.ZodType, example: unknown) => Record<string, { schema: z.ZodType; example?: unknown }>;

/**
 * What a success answers, by the contract's reply kind: JSON checked against `reply`; a redirect,
 * which is a 302 and nothing else (Fastify's `reply.redirect`: the sign-in round trip, logout, and
 * the chat's Buy and renewal links that go on to the payment page), so such an operation has no
 * 2xx at all; a stream, which every stream route sends as Server-Sent Events
 * (platform's followAsEventStream), its `reply` and example being the events' text; or a download,
 * JSON sent as an attachment.
 */
function successResponse(route: AnyRouteContract, json: MediaTypes) {
  switch (route.replyKind ?? 'json') {
    case 'redirect':
      return {
        302: {
          description: 'Redirect (a browser navigation)',
          headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
        },
      };
    case 'stream':
      return {
        200: {
          description: route.summary,
          content: { 'text/event-stream': { schema: route.reply, ...(route.example.reply === undefined ? {} : { example: route.example.reply }) } },
        },
      };
    case 'download':
      return {
        200: {
          description: route.summary,
          headers: { 'Content-Disposition': { description: 'attachment, with the file name', schema: { type: 'string' } } },
          content: json(route.reply, route.example.reply),
        },
      };
    default:
      return { 200: { description: route.summary, content: json(route.reply, route.example.reply) } };
  }
}

/**
 * The OpenAPI 3.1 document of every route a caller outside can reach, built from the contracts
 * (internal routes are left out). Each operation carries its contract's summary, category (tag),
 * access (`x-access`), request schemas, the example request (each parameter's value too) and reply,
 * and an operationId derived from its method and path (operationIdOf; two routes that would share
 * one fail here).
 */
export function buildOpenApiDocument(routes: readonly AnyRouteContract[], info: { title: string; version: string; license?: { name: string; identifier?: string; url?: string } }) {
  const registry = new OpenAPIRegistry();
  const operationIds = new Map<string, string>();
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session cookie set at sign-in' });
  for (const route of routes) {
    if (route.access === 'internal') continue;
    const json = (schema: z.ZodType, example: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
    const operationId = operationIdOf(route);
    const twin = operationIds.get(operationId);
    if (twin) throw new Error(`${route.method} ${route.path} and ${twin} both get the operationId ${operationId}`);
    operationIds.set(operationId, `${route.method} ${route.path}`);
    const success = successResponse(route, json);
    registry.registerPath({
      method: route.method.toLowerCase() as 'get',
      path: openApiPath(route.path),
      operationId,
      summary: route.summary,
      tags: [route.category],
      security: securityOf[route.access],
      'x-access': route.access satisfies OperationAccess,
      'x-owner': route.owner,
      request: {
        ...(route.params ? { params: route.params as z.ZodObject } : {}),
        ...(route.query instanceof z.ZodObject ? { query: route.query } : {}),
        ...(route.body ? { body: { content: json(route.body, route.example.body) } } : {}),
      },
      responses: {
        ...success,
        400: { description: 'Bad input; `error` names the field', content: json(errorReply, undefined) },
        ...(route.access === 'public' ? {} : { 401: { description: 'Not signed in' }, 403: { description: 'Not allowed' } }),
      },
    } as unknown as Parameters<OpenAPIRegistry['registerPath']>[0]);
  }
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info,
    // The gateway serves this document itself, at the origin its routes are on: a relative server
    // is that origin, whatever PUBLIC_URL a deployment has (the paths carry their own /api).
    servers: [{ url: '/', description: 'The gateway that serves this document' }],
  });
  for (const route of routes) {
    if (route.access !== 'internal') addParameterExamples(document.paths?.[openApiPath(route.path)]?.[route.method.toLowerCase() as 'get'], route);
  }
  return document;
}

interface ParameterWithExample {
  name: string;
  in: string;
  schema?: { type?: unknown };
  example?: unknown;
}

/**
 * Each path and query parameter carries its contract's example value, so a caller (the dashboard's
 * API tools fill a path from them) can build a sample request from the document alone. A path
 * parameter travels as text: a number the contract's example gives for a parameter whose schema is
 * a string (the `:id` pattern) is written as that text.
 */
function addParameterExamples(operation: { parameters?: unknown[] } | undefined, route: AnyRouteContract): void {
  const examples: Record<string, Record<string, unknown> | undefined> = {
    path: route.example.params as Record<string, unknown> | undefined,
    query: route.example.query as Record<string, unknown> | undefined,
  };
  for (const parameter of (operation?.parameters ?? []) as ParameterWithExample[]) {
    const value = examples[parameter.in]?.[parameter.name];
    if (value === undefined) continue;
    parameter.example = typeof value === 'number' && parameter.schema?.type === 'string' ? String(value) : value;
  }
}

/**
 * The document `GET /api/openapi.json` serves (and `make lint-openapi` checks): every contract,
 * under the gateway's title. The API is the business's own, published under no licence.
 */
export function buildGatewayOpenApiDocument() {
  return buildOpenApiDocument(allRoutes, {
    title: 'Back-office API',
    version: '1',
    license: { name: 'Proprietary, all rights reserved', identifier: 'LicenseRef-Proprietary' },
  });
}
