import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { heardPool } from '../db/database';
import { platformMigrationsDir } from '../db/migrate';
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
  // A client killed by the forced drop (idle or held) must not crash the run.
  const pool = heardPool({ connectionString: database.url, max: 10 });
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
 * Creates `schema` with the messaging tables (outbox, inbox, applied revisions, outside effects):
 * the platform's own messaging migration (platform/migrations/*_messaging), as services get it.
 * `db` is a pg-backed client (createPgSqlClient): Prisma's raw queries take one statement each.
 */
export async function createMessagingTables(db: SqlClient, schema: string): Promise<void> {
  await createPlatformTables(db, schema, (folder) => folder.endsWith('_messaging'));
}

/** Creates `schema` with the platform's tables of every migration folder `which` picks (all by default), in order, as the runner applies them. */
export async function createPlatformTables(db: SqlClient, schema: string, which: (folder: string) => boolean = () => true): Promise<void> {
  const folders = (await readdir(platformMigrationsDir)).filter(which).sort();
  if (!folders.length) throw new Error(`No such migration in ${platformMigrationsDir}`);
  const s = `"${schema}"`;
  for (const folder of folders) {
    const sql = await readFile(path.join(platformMigrationsDir, folder, 'migration.sql'), 'utf8');
    // One simple query (no parameters, so several statements may run): one connection, one implicit
    // transaction, so the search_path is set for it alone.
    await db.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS ${s}; SET LOCAL search_path TO ${s};\n${sql}`);
  }
}
