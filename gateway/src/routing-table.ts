import { allRoutes, domainServiceNames, urlVariableOf, type AnyRouteContract, type DomainServiceName } from '@bo/proto';
import type { GatewayConfig } from './config';

/**
 * The routing table, derived from the route contracts in proto: every public, customer or admin
 * /api route a domain service owns is forwarded to that service; nothing else is. An /api path
 * no contract declares is a 404 at the gateway and never reaches a service.
 */
export type ServiceName = DomainServiceName;

export interface RouteMatch {
  service: ServiceName;
  contract: AnyRouteContract;
}

const forwarded = allRoutes
  .filter((route) => route.owner !== 'gateway' && route.access !== 'internal' && route.path.startsWith('/api/'))
  .map((contract) => ({
    contract,
    service: contract.owner as ServiceName,
    pattern: new RegExp(`^${contract.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]\w*/g, '[^/]+')}/?$`),
  }));

const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/** The service and contract for this method and path, or null when no contract declares it. */
export function matchRoute(method: string, path: string): RouteMatch | null {
  if (DOT_SEGMENT.test(path)) return null; // never let '..' climb from one service's paths into another's
  const found = forwarded.find((entry) => entry.contract.method === method && entry.pattern.test(path));
  return found ? { service: found.service, contract: found.contract } : null;
}

export const serviceNames: readonly ServiceName[] = domainServiceNames;

/** Where a service listens: its `<NAME>_URL` variable (see proto's service registry). */
export const serviceUrl = (config: GatewayConfig, service: ServiceName): string => (config as Record<string, unknown>)[urlVariableOf(service)] as string;
