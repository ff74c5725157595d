import pg from 'pg';
import type { SqlClient, TransactionalDb, TransactionalSqlClient } from '../events/sql';
import { createTestDatabase } from './database';

type Queryable = pg.Pool | pg.PoolClient;

function sqlOver(queryable: Queryable): SqlClient {
  return {
    $executeRawUnsafe: async (query, ...values) => (await queryable.query(query, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await queryable.query(query, values)).rows as T,
  };
}

/** The SqlClient of the events module over a `pg` Pool, with interactive transactions like Prisma's. */
export function createPgSqlClient(pool: pg.Pool): TransactionalSqlClient {
  return createTypedPgClient(pool, (sql) => sql);
}

/**
 * Like createPgSqlClient, but each transaction hands out `typed(sql)`: a typed transaction client
 * with store methods, the way a Prisma client's `tx` carries its models.
 */
export function createTypedPgClient<Tx extends SqlClient>(pool: pg.Pool, typed: (sql: SqlClient) => Tx): TransactionalDb<Tx> {
  return {
    ...sqlOver(pool),
    async $transaction<R>(fn: (tx: Tx) => Promise<R>): Promise<R> {
      const client = await pool.connect();
      // A connection that dies while checked out also emits 'error'; unheard, that would crash the process.
      if (client.listenerCount('error') === 0) client.on('error', () => {});
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(typed(sqlOver(client)));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

export interface TestSqlDatabase {
  db: TransactionalSqlClient;
  pool: pg.Pool;
  /** postgres://… of the database. */
  url: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh PostgreSQL database (random name) with a pg-backed SqlClient, dropped by `drop()`. */
export async function createTestSqlDatabase(prefix: string): Promise<TestSqlDatabase> {
  const database = await createTestDatabase(prefix);
  const pool = new pg.Pool({ connectionString: database.url, max: 10 });
  pool.on('error', () => {}); // an idle client killed by the forced drop must not crash the run
  return {
    db: createPgSqlClient(pool),
    pool,
    url: database.url,
    drop: async () => {
      await pool.end();
      await database.drop();
    },
  };
}

/**
 * Creates `schema` with the messaging tables of platform/prisma/messaging.prisma (outbox, inbox,
 * applied revisions, outside effects), the same DDL the services' migrations hold.
 */
export async function createMessagingTables(db: SqlClient, schema: string): Promise<void> {
  const s = `"${schema}"`;
  await db.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await db.$executeRawUnsafe(`CREATE TABLE ${s}.outbox_events (
    id uuid PRIMARY KEY, name text NOT NULL, version integer NOT NULL, payload jsonb NOT NULL,
    correlation_id text, occurred_at timestamptz(3) NOT NULL, status text NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0, last_error text,
    next_attempt_at timestamptz(3) NOT NULL DEFAULT now(), sent_at timestamptz(3),
    pending_since timestamptz(3) NOT NULL DEFAULT now(), failed_at timestamptz(3))`);
  await db.$executeRawUnsafe(`CREATE INDEX ON ${s}.outbox_events (status, next_attempt_at)`);
  await db.$executeRawUnsafe(`CREATE INDEX ON ${s}.outbox_events (sent_at)`);
  await db.$executeRawUnsafe(`CREATE TABLE ${s}.inbox_events (
    consumer text NOT NULL, event_id uuid NOT NULL, name text NOT NULL, outcome text NOT NULL DEFAULT 'applied',
    processed_at timestamptz(3) NOT NULL DEFAULT now(), PRIMARY KEY (consumer, event_id))`);
  await db.$executeRawUnsafe(`CREATE INDEX ON ${s}.inbox_events (processed_at)`);
  await db.$executeRawUnsafe(`CREATE TABLE ${s}.applied_revisions (
    consumer text NOT NULL, entity text NOT NULL, entity_key text NOT NULL, revision bigint NOT NULL, event_id uuid NOT NULL,
    applied_at timestamptz(3) NOT NULL DEFAULT now(), PRIMARY KEY (consumer, entity, entity_key))`);
  await db.$executeRawUnsafe(`CREATE TABLE ${s}.outside_effects (
    idempotency_key text PRIMARY KEY, kind text NOT NULL, payload jsonb NOT NULL, status text NOT NULL DEFAULT 'pending',
    attempts integer NOT NULL DEFAULT 0, next_attempt_at timestamptz(3) NOT NULL DEFAULT now(), last_error text,
    created_at timestamptz(3) NOT NULL DEFAULT now(), updated_at timestamptz(3) NOT NULL DEFAULT now(), done_at timestamptz(3))`);
  await db.$executeRawUnsafe(`CREATE INDEX ON ${s}.outside_effects (status, next_attempt_at)`);
}
