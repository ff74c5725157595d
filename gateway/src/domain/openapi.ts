import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { AnyRouteContract } from '@bo/proto';
import { z } from 'zod';

const errorReply = z.object({ error: z.string(), details: z.unknown().optional() });

/** `/api/prices/:product` → `/api/prices/{product}` */
const openApiPath = (path: string) => path.replace(/:([A-Za-z]\w*)/g, '{$1}');

const securityOf: Record<AnyRouteContract['access'], Array<Record<string, string[]>>> = {
  public: [],
  customer: [{ session: [] }],
  admin: [{ session: [] }],
  internal: [],
};

/**
 * The OpenAPI 3.1 document of every route a caller outside can reach, built from the contracts
 * (internal routes are left out). Each operation carries its contract's summary, category (tag),
 * access, request schemas and the example request and reply.
 */
export function buildOpenApiDocument(routes: readonly AnyRouteContract[], info: { title: string; version: string }) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session cookie set at sign-in' });
  for (const route of routes) {
    if (route.access === 'internal') continue;
    const json = (schema: z.ZodType, example: unknown) => ({ 'application/json': { schema, ...(example === undefined ? {} : { example }) } });
    const success =
      (route.replyKind ?? 'json') === 'redirect'
        ? { 302: { description: 'Redirect (a browser navigation)' } }
        : { 200: { description: route.summary, content: json(route.reply, route.example.reply) } };
    registry.registerPath({
      method: route.method.toLowerCase() as 'get',
      path: openApiPath(route.path),
      summary: route.summary,
      tags: [route.category],
      security: securityOf[route.access],
      'x-access': route.access,
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
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info });
}
