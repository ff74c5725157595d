import type { SqlClient } from '../db/prisma-client';
import { quoteSchema } from '../events/sql';
import { runKind, schedule, type Schedule } from '../runs';

/** How long a log table fed by anonymous requests keeps a row. */
export const LOG_RETENTION_MS = 30 * 24 * 3_600_000;
/** Hourly, at a minute of its own so it does not start with every other hourly schedule. */
const EVERY_HOUR = '17 * * * *';
/** Rows deleted per statement: a backlog is cleared in short transactions, never one long lock. */
const BATCH = 5_000;

export interface LoggedTable {
  /** The table in the service's schema, e.g. qpay_webhook_logs. */
  table: string;
  /** Its timestamp column, e.g. created_at (indexed, so the sweep finds old rows cheaply). */
  column: string;
}

export interface LogRetention {
  /** One sweep now: how many rows each table lost. */
  sweep(): Promise<Record<string, number>>;
  /** The hourly schedule of a domain service's sweep (a `log-retention` run, its counts as the result). */
  schedule: Schedule;
}

/**
 * Deletes rows older than `keepMs` (30 days) from the service's log tables fed by anonymous
 * requests, so no caller can make them grow without bound: hourly on the scheduler (one replica
 * runs each tick), or now with sweep().
 */
export function logRetention(options: { db: SqlClient; schema: string; tables: LoggedTable[]; keepMs?: number }): LogRetention {
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
  return { sweep, schedule: schedule('log-retention', EVERY_HOUR, runKind('log-retention', () => sweep(), { exclusive: true })) };
}
