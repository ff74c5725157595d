import type { SqlClient } from '../db/prisma-client';
import { quoteSchema } from '../events/sql';
import type { Job } from './jobs';

/** How long a log table fed by anonymous requests keeps a row. */
export const LOG_RETENTION_MS = 30 * 24 * 3_600_000;
const EVERY_MS = 3_600_000;
/** Rows deleted per statement: a backlog is cleared in short transactions, never one long lock. */
const BATCH = 5_000;

export interface LoggedTable {
  /** The table in the service's schema, e.g. qpay_webhook_logs. */
  table: string;
  /** Its timestamp column, e.g. created_at (indexed, so the sweep finds old rows cheaply). */
  column: string;
}

export interface LogRetentionJob extends Job {
  /** One sweep now: how many rows each table lost. */
  sweep(): Promise<Record<string, number>>;
}

/**
 * The periodic job that deletes rows older than `keepMs` (30 days) from the service's log tables
 * fed by anonymous requests, so no caller can make them grow without bound. A platform job: one
 * replica runs it at a time, under the service's lock.
 */
export function logRetentionJob(options: { db: SqlClient; schema: string; tables: LoggedTable[]; keepMs?: number; everyMs?: number }): LogRetentionJob {
  const keepMs = options.keepMs ?? LOG_RETENTION_MS;
  const schema = quoteSchema(options.schema);
  const statements = options.tables.map(({ table, column }) => {
    for (const name of [table, column]) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid table or column name "${name}"`);
    const qualified = `${schema}."${table}"`;
    return {
      table,
      sql: `DELETE FROM ${qualified} WHERE ctid IN (SELECT ctid FROM ${qualified} WHERE "${column}" < now() - $1::bigint * interval '1 millisecond' LIMIT ${BATCH})`,
    };
  });
  const sweep = async () => {
    const deleted: Record<string, number> = {};
    for (const { table, sql } of statements) {
      deleted[table] = 0;
      for (;;) {
        const count = await options.db.$executeRawUnsafe(sql, keepMs);
        deleted[table] += count;
        if (count < BATCH) break;
      }
    }
    return deleted;
  };
  return { name: 'log-retention', everyMs: options.everyMs ?? EVERY_MS, sweep, run: async () => void (await sweep()) };
}
