import type { FastifyInstance, RouteOptions } from 'fastify';
import { routeRules } from '../routing-table';
import { guarded } from '../plugins/access';

export interface ListedRoute {
  method: string;
  path: string;
  access: string;
  owner: string;
}

/** Collects the gateway's own /api routes as they are registered (call before registering them). */
export function collectGatewayRoutes(app: FastifyInstance): ListedRoute[] {
  const routes: ListedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const guard = route.config?.guard;
    if (!guard || !route.url.startsWith('/api')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, path: route.url, access: guard, owner: 'gateway' });
  });
  return routes;
}

/** GET /api: what the API offers, from the routing table and the gateway's own routes. */
export function registerApiIndexRoute(app: FastifyInstance, gatewayRoutes: ListedRoute[]): void {
  app.get('/api', guarded('public'), async () => ({
    name: 'Back-office API',
    runtime: { node: process.version },
    routes: [
      ...gatewayRoutes,
      ...routeRules.map((rule) => ({ method: rule.method, path: rule.path, access: rule.access, owner: rule.service, description: rule.description })),
    ],
  }));
}
