import { auditRoutesOf, type DomainServiceName } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import { serveRoute } from '../http/routes';
import type { AuditLog } from './audit-log';

/** The process's audit entries, for the gateway's list across every service. */
export function registerAuditRoutes(app: FastifyInstance, deps: { service: DomainServiceName; auditLog: AuditLog }): void {
  serveRoute(app, auditRoutesOf(deps.service).listAudit, async ({ query }) => ({ data: await deps.auditLog.list(query) }));
}
