/**
 * A process's audit entries (docs/audit-log.md): written by its tables' trigger, read here. The
 * table is append-only; nothing in the code writes it but the trigger.
 */
import { parseAuditCursor, type AuditEntryView, type AuditListQuery, type ServiceName } from '@bo/proto';
import { quoteSchema, type SqlClient } from '../events/sql';

interface AuditRow {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string;
  address: string | null;
  request: string;
  correlation_id: string | null;
  action: AuditEntryView['action'];
  entity: string;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export class AuditLog {
  private readonly table: string;

  constructor(private readonly options: { service: ServiceName; schema: string; db: SqlClient }) {
    this.table = `${quoteSchema(options.schema)}.admin_logs`;
  }

  /** Newest first, filtered as asked; `before` pages on: the entries after that place in the list's order (compareAuditEntries). */
  async list(query: AuditListQuery): Promise<AuditEntryView[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    const match = (sql: (at: string) => string, value: unknown) => {
      values.push(value);
      where.push(sql(`$${values.length}`));
    };
    if (query.actor !== undefined) match((at) => `(actor_name = ${at} OR actor_id = ${at})`, query.actor);
    if (query.entity !== undefined) match((at) => `entity = ${at}`, query.entity);
    if (query.action !== undefined) match((at) => `action = ${at}`, query.action);
    if (query.from !== undefined) match((at) => `at >= ${at}`, new Date(query.from));
    if (query.to !== undefined) match((at) => `at <= ${at}`, new Date(query.to));
    if (query.before !== undefined) {
      // Of the cursor's millisecond: none of a service listed before the cursor's, all of one listed after, this one's below its number.
      const cursor = parseAuditCursor(query.before);
      const service = this.options.service;
      match((at) => `at <= ${at}`, new Date(cursor.at));
      if (service < cursor.service) match((at) => `at < ${at}`, new Date(cursor.at));
      if (service === cursor.service) {
        values.push(new Date(cursor.at));
        const time = `$${values.length}`;
        match((number) => `(at < ${time} OR id < ${number})`, cursor.number.toString());
      }
    }
    values.push(query.limit);
    const rows = await this.options.db.$queryRawUnsafe<AuditRow[]>(
      `SELECT id::text, at, actor_id, actor_name, address, request, correlation_id, action, entity, entity_id, "before", "after"
         FROM ${this.table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT $${values.length}`,
      ...values,
    );
    return rows.map((row) => ({
      id: `${this.options.service}.${row.id}`,
      service: this.options.service,
      at: row.at.toISOString(),
      actorId: row.actor_id,
      actorName: row.actor_name,
      address: row.address,
      request: row.request,
      correlationId: row.correlation_id,
      action: row.action,
      entity: row.entity,
      entityId: row.entity_id,
      before: row.before,
      after: row.after,
    }));
  }
}
