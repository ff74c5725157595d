import type { FastifyRequest } from 'fastify';
import type { RouteAccess } from '@bo/proto';
import { forbidden, unauthorized } from '../errors';
import type { Identity } from '../identity';

export type { RouteAccess };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; set from its contract (or by the platform for /health and the like). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    identity: Identity | null;
    /** Why the identity header was refused (a foreign signer, a claim its signer may not make, stale), or null. */
    identityRefused: string | null;
  }
}

/**
 * Throws 401/403 unless the identity may call a route of this access (a refused identity header
 * is a 403 naming why, no header a 401):
 * - public: anyone;
 * - customer: a signed customer (or admin) identity;
 * - admin: a signed admin identity;
 * - internal: a service identity (the gateway or another service), never a person's; only the
 *   contract's `callers` when it names them.
 */
export function assertAccess(request: FastifyRequest, access: RouteAccess): void {
  if (access === 'public') return;
  const identity = request.identity;
  if (!identity && request.identityRefused) throw forbidden(`Identity refused: ${request.identityRefused}`);
  if (!identity || identity.kind === 'anonymous') throw unauthorized();
  if (access === 'internal') {
    if (identity.kind !== 'service') throw forbidden('Internal route');
    const callers = request.routeOptions.config.contract?.callers;
    if (callers && !callers.includes(identity.userId as never)) throw forbidden(`Internal route for ${callers.join(', ')} only, not ${identity.userId}`);
    return;
  }
  if (access === 'admin' && !identity.isAdmin) throw forbidden();
  if (access === 'customer' && identity.kind !== 'customer' && !identity.isAdmin) throw forbidden('Customer session required');
}

/**
 * The caller's address: the gateway puts the one address it resolved (its TRUST_PROXY rules) in
 * X-Forwarded-For; only a request that did not come through the gateway lacks it.
 */
export function callerAddress(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || request.ip;
}
