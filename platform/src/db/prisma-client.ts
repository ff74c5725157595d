import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
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
 * client (the adapter reports it), never through a session search_path, so a pool's connections
 * serve any schema.
 */
export function createPrismaClient<T>(PrismaClient: PrismaClientClass<T>, database: Database, schema: string): T {
  return new PrismaClient({ adapter: new PrismaPg(database.pool as unknown as PgPool, { schema }) });
}
