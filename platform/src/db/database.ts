import pg from 'pg';
import { carryAuditActor } from '../audit/actor';

/**
 * Where the data lives: a PostgreSQL server (15 to 18), the machine's or a cluster's in the
 * distributed run, the one shipped in npm in the embedded run.
 */
export type DatabaseConfig = { kind: 'postgres'; url: string };

/** A service's connection pool. Services keep apart by PostgreSQL schema and by pool. */
export type Database = { kind: 'postgres'; pool: pg.Pool; close(): Promise<void> };

/** Statements run inside one transaction on one connection (see inTransaction). */
export type TransactionSession = {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements, without parameters. */
  exec(script: string): Promise<void>;
};

/**
 * A pg pool none of whose connections can end the process. A connection whose server goes away
 * (a restart, a cut network, pg_terminate_backend) emits 'error', and an 'error' nobody listens to
 * is thrown. pg-pool listens only while a connection is idle (then the pool says 'error'); one
 * checked out, such as a transaction's between two of its queries (ours or Prisma's adapter's),
 * is heard here for its whole life. The loss reaches its user as the next query's failure (a
 * transient one), and the pool drops the connection when it is released.
 */
export function heardPool(options: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(options);
  const lost = () => {};
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const pool = heardPool({ connectionString: config.url });
  carryAuditActor(pool);
  await pool.query('SELECT 1'); // fail at start, with the driver's message, when unreachable
  return { kind: 'postgres', pool, close: () => pool.end() };
}

/** A connection taken from the pool as a session (its caller begins and ends the transaction). */
export function sessionOf(client: pg.PoolClient): TransactionSession {
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    exec: async (script) => void (await client.query(script)),
  };
}

/** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
export async function inTransaction<T>(database: Database, fn: (session: TransactionSession) => Promise<T>): Promise<T> {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(sessionOf(client));
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
