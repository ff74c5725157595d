import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { Database } from './database';

// adapter-pg is typed against a newer @types/pg than ours; the runtime Pool is the same `pg` one.
type PgPool = ConstructorParameters<typeof PrismaPg>[0];

/** What every generated PrismaClient class accepts (Prisma 7 always goes through a driver adapter). */
export type PrismaClientClass<T> = new (options: { adapter: SqlMigrationAwareDriverAdapterFactory }) => T;

/**
 * Raw SQL access satisfied by a Prisma client and by the `tx` of an interactive transaction.
 * Raw SQL is not schema-qualified by Prisma: write "<schema>".table yourself.
 */
export type SqlClient = {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
};

/**
 * A Prisma client whose model queries are qualified with `schema`. The schema is chosen per
 * client (the adapter reports it in getConnectionInfo), never through a session search_path,
 * because in embedded mode every service shares one PGlite session.
 */
export function createPrismaClient<T>(PrismaClient: PrismaClientClass<T>, database: Database, schema: string): T {
  const adapter =
    database.kind === 'postgres'
      ? new PrismaPg(database.pool as unknown as PgPool, { schema })
      : pgliteAdapterFactory(database.pglite, schema);
  return new PrismaClient({ adapter });
}

/**
 * pglite-prisma-adapter 0.7.2 has no way to pass a schema to its factory (its adapter reads
 * `options.schema` but the factory never sets it), so this factory reports the schema itself.
 */
export function pgliteAdapterFactory(pglite: PGlite, schema: string): SqlMigrationAwareDriverAdapterFactory {
  const inner = new PrismaPGlite(pglite);
  return {
    provider: 'postgres',
    adapterName: inner.adapterName,
    connect: async () => withSchema((await inner.connect()) as unknown as SqlDriverAdapter, schema),
    connectToShadowDb: async () => withSchema((await inner.connectToShadowDb()) as unknown as SqlDriverAdapter, schema),
  };
}

function withSchema(adapter: SqlDriverAdapter, schema: string): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    startTransaction: (isolationLevel) => adapter.startTransaction(isolationLevel),
    dispose: () => adapter.dispose(),
    getConnectionInfo: () => ({ ...adapter.getConnectionInfo?.(), schemaName: schema, supportsRelationJoins: true }),
  };
}
