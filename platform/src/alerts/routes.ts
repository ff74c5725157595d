import { alertRoutesOf, type DomainServiceName } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import { serveRoute } from '../http/routes';
import type { Alerts } from './alerts';

/** The service's alerts, for the gateway's list across every service. */
export function registerAlertRoutes(app: FastifyInstance, deps: { service: DomainServiceName; alerts: Alerts }): void {
  serveRoute(app, alertRoutesOf(deps.service).listAlerts, async ({ query }) => ({ data: await deps.alerts.list(query) }));
}
