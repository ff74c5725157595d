import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import type { Identity } from '../identity';

/**
 * Who may call a route, declared on the route itself: `{ config: { access: 'public' } }`.
 * - public: anyone (the gateway's routing table lists these too);
 * - customer: a signed customer (or admin) identity;
 * - admin: a signed admin identity (the default, so a forgotten declaration fails closed).
 */
export type RouteAccess = 'public' | 'customer' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    identity: Identity | null;
  }
}

export function assertAccess(request: FastifyRequest, access: RouteAccess): void {
  if (access === 'public') return;
  const identity = request.identity;
  if (!identity || identity.kind === 'anonymous') throw unauthorized();
  if (access === 'admin' && !identity.isAdmin) throw forbidden();
  if (access === 'customer' && identity.kind !== 'customer' && !identity.isAdmin) throw forbidden('Customer session required');
}
