import type { RouteAccess } from '@bo/platform';
import type { GatewayConfig } from './config';

/**
 * The one routing table: which service owns which /api path prefix, and who may call what.
 * A request under a service's prefix that no rule lists is forwarded as 'admin' (fail closed).
 */
export type ServiceName = 'pricing';

export interface ServiceEntry {
  name: ServiceName;
  prefixes: string[];
  /** The config key holding the service's internal base URL. */
  urlKey: keyof GatewayConfig & `${Uppercase<string>}_URL`;
}

export interface RouteRule {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path pattern; `:name` matches one segment. */
  path: string;
  service: ServiceName;
  access: RouteAccess;
  /** Public GETs whose answers the gateway may keep for a short TTL (see domain/public-read-cache). */
  cacheable?: boolean;
  /** Authenticated by the caller's signature or token, not cookies: no CSRF/Origin check, anonymous identity. */
  webhook?: boolean;
  description: string;
}

export const services: ServiceEntry[] = [{ name: 'pricing', prefixes: ['/api/prices', '/api/sheets', '/api/cache'], urlKey: 'PRICING_URL' }];

export const routeRules: RouteRule[] = [
  { method: 'GET', path: '/api/prices', service: 'pricing', access: 'public', cacheable: true, description: 'Price list' },
  { method: 'GET', path: '/api/prices/:product', service: 'pricing', access: 'public', cacheable: true, description: 'Price of one product' },
  { method: 'POST', path: '/api/prices/:product', service: 'pricing', access: 'admin', description: 'Change one price' },
  { method: 'POST', path: '/api/sheets/update', service: 'pricing', access: 'admin', description: 'Edit a spreadsheet row' },
  { method: 'GET', path: '/api/cache/status', service: 'pricing', access: 'admin', description: 'Price cache status' },
  { method: 'POST', path: '/api/cache/invalidate', service: 'pricing', access: 'admin', description: 'Clear the price cache' },
];

export type RouteMatch = { service: ServiceEntry; rule: RouteRule | null };

const compiled = routeRules.map((rule) => ({
  rule,
  pattern: new RegExp(`^${rule.path.replace(/:[A-Za-z]+/g, '[^/]+')}/?$`),
}));

const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

function ownsPath(service: ServiceEntry, path: string): boolean {
  return service.prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The service owning `path` and the rule for this method, or null when no service owns it. */
export function matchRoute(method: string, path: string): RouteMatch | null {
  if (DOT_SEGMENT.test(path)) return null; // never let '..' climb from one prefix into another
  const service = services.find((s) => ownsPath(s, path));
  if (!service) return null;
  const found = compiled.find((c) => c.rule.method === method && c.rule.service === service.name && c.pattern.test(path));
  return { service, rule: found?.rule ?? null };
}

/** Who may call it: the rule's access, else admin. */
export const accessOf = (match: RouteMatch): RouteAccess => match.rule?.access ?? 'admin';

export const serviceUrl = (config: GatewayConfig, service: ServiceEntry): string => config[service.urlKey] as string;
