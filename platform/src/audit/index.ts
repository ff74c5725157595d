// The audit log: every row an admin's request changed, written by the table's trigger in the change's transaction (docs/audit-log.md).
export { carryAuditActor, clearAuditActor, runWithActorHolder, setAuditActor, withoutAudit, type AuditActor } from './actor';
export { AuditLog } from './audit-log';
export { registerAuditRoutes } from './routes';
