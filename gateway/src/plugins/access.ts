import fastifyCsrf from '@fastify/csrf-protection';
import { anonymousIdentity, assertAccess, AppError, type Identity } from '@bo/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { matchRoute, type RouteMatch } from '../routing-table';
import type { SessionAuth } from './sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catch-all that forwards to services: access comes from the routing table. */
    proxied?: boolean;
  }
  interface FastifyRequest {
    /** For proxied requests: the owning service and the route's contract. */
    routeMatch: RouteMatch | null;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);


const isWebhook = (request: FastifyRequest) => request.routeMatch?.contract.webhook === true;

/** The gateway's answer to "who is calling": the session (never a client header); webhooks are anonymous. */
export function identifyFromSession(request: FastifyRequest): Identity {
  return isWebhook(request) ? anonymousIdentity() : identityOf(request.session?.auth);
}

export function identityOf(auth: SessionAuth | undefined): Identity {
  if (!auth) return anonymousIdentity();
  return {
    kind: auth.kind, userId: auth.userId, email: auth.email, ...(auth.name ? { name: auth.name } : {}), isAdmin: auth.isAdmin,
    keyId: auth.keyId === undefined ? null : String(auth.keyId), iat: Date.now(),
  };
}

const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0];

/**
 * Who is calling and may they: identity from the session (never from a client header), access
 * from the route or the routing table, then the cross-site defences for state-changing calls:
 * a foreign Origin is refused, and a signed-in session must present its CSRF token (x-csrf-token).
 */
export async function registerAccessControl(app: FastifyInstance, config: GatewayConfig): Promise<void> {
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/session', getToken: (request) => request.headers['x-csrf-token'] as string });
  app.decorateRequest('routeMatch', null);
  const ownOrigin = new URL(config.PUBLIC_URL).origin;

  const needsCrossSiteCheck = (request: FastifyRequest) =>
    STATE_CHANGING.has(request.method) && pathOf(request).startsWith('/api') && !isWebhook(request);

  // Before the platform's identity hook (preHandler), so a webhook is judged as anonymous.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.config?.proxied) request.routeMatch = matchRoute(request.method, pathOf(request));
  });

  app.addHook('preHandler', async (request) => {
    const routeConfig = request.routeOptions.config;
    // The gateway's own routes are checked by the platform (identity from the session); forwarded
    // ones here, by their contract. A path no contract declares is answered 404 by the proxy, for anyone.
    if (routeConfig?.proxied) assertAccess(request, request.routeMatch?.contract.access ?? 'public');
    if (needsCrossSiteCheck(request)) {
      const origin = request.headers.origin;
      if ((origin !== undefined && origin !== ownOrigin) || request.headers['sec-fetch-site'] === 'cross-site') {
        throw new AppError(403, 'cross_site', 'Cross-site request refused');
      }
    }
  });

  app.addHook('preHandler', (request, reply, done) => {
    if (needsCrossSiteCheck(request) && request.session?.auth) app.csrfProtection(request, reply, done);
    else done();
  });
}
