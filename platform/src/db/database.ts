import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Where the data lives: a PostgreSQL server, or an in-process PGlite (embedded mode). */
export type DatabaseConfig =
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string | null /* null = in memory */ };

/**
 * The shared handle of one process: a PostgreSQL pool, or the one PGlite instance that every
 * service of the embedded run uses. Services keep apart by PostgreSQL schema, not by handle.
 */
export type Database =
  | { kind: 'postgres'; pool: pg.Pool; close(): Promise<void> }
  | { kind: 'pglite'; pglite: PGlite; close(): Promise<void> };

/** Statements run inside one transaction on one connection (see inTransaction). */
export type TransactionSession = {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements, without parameters. */
  exec(script: string): Promise<void>;
};

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url });
    // An idle client whose server went away (restart, terminate) emits 'error' on the pool; with no
    // listener that would crash the process. The pool drops that client and the next query reconnects.
    pool.on('error', () => {});
    await pool.query('SELECT 1'); // fail at start, with the driver's message, when unreachable
    return { kind: 'postgres', pool, close: () => pool.end() };
  }
  const pglite = await PGlite.create(config.dataDir ?? undefined);
  return { kind: 'pglite', pglite, close: () => pglite.close() };
}

/** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
export async function inTransaction<T>(database: Database, fn: (session: TransactionSession) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') {
    return database.pglite.transaction((tx) =>
      fn({
        query: async (sql, params) => (await tx.query(sql, params)).rows as never,
        exec: async (script) => void (await tx.exec(script)),
      }),
    );
  }
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn({
      query: async (sql, params) => (await client.query(sql, params)).rows,
      exec: async (script) => void (await client.query(script)),
    });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Quotes a PostgreSQL identifier (schema or table name) for use in SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
