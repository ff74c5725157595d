import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Database, inTransaction, quoteIdentifier, type TransactionSession } from './database';

export type MigrateOptions = {
  /** PostgreSQL schema of the service; created when missing. */
  schema: string;
  /** The service's prisma/migrations folder (Prisma's layout: <timestamp>_<name>/migration.sql). */
  migrationsDir: string;
};

type LocalMigration = { name: string; sql: string; checksum: string };
type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null };

// Prisma's own table (same DDL as the schema engine), so `prisma migrate deploy` with
// ?schema=<schema> sees what we applied and we see what it applied.
const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the pending migrations of one service, in name order, each in its own transaction with
 * the service schema as search_path. Every transaction first takes an advisory lock per schema and
 * re-reads the applied list, so replicas starting together apply each migration once. Refuses to
 * run when an applied migration's file changed or a migration is recorded as failed.
 */
export async function migrate(database: Database, { schema, migrationsDir }: MigrateOptions): Promise<{ applied: string[] }> {
  const local = await readMigrations(migrationsDir);
  const applied: string[] = [];
  await inSchemaTransaction(database, schema, async (session) => {
    await session.exec(MIGRATIONS_TABLE_DDL);
    checkHistory(schema, local, await readApplied(session));
  });
  for (const migration of local) {
    const done = await inSchemaTransaction(database, schema, async (session) => {
      if ((await readApplied(session)).some((row) => row.migration_name === migration.name)) return false;
      const startedAt = new Date();
      await session.exec(migration.sql).catch((error: Error) => {
        throw new Error(`Migration ${migration.name} of schema "${schema}" failed: ${error.message}`, { cause: error });
      });
      await session.query(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
         VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, $4, 1)`,
        [randomUUID(), migration.checksum, migration.name, startedAt],
      );
      return true;
    });
    if (done) applied.push(migration.name);
  }
  return { applied };
}

async function inSchemaTransaction<T>(database: Database, schema: string, fn: (session: TransactionSession) => Promise<T>): Promise<T> {
  return inTransaction(database, async (session) => {
    await session.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`prisma-migrate:${schema}`]);
    await session.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await session.query(`SELECT set_config('search_path', $1, true)`, [quoteIdentifier(schema)]);
    return fn(session);
  });
}

async function readMigrations(migrationsDir: string): Promise<LocalMigration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** Rows that count as applied or failed (rolled-back rows are history only, as in Prisma). */
async function readApplied(session: TransactionSession): Promise<AppliedRow[]> {
  return session.query<AppliedRow>(
    'SELECT migration_name, checksum, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL ORDER BY started_at',
  );
}

// Applied migrations missing locally are accepted: an older replica may restart after a newer one migrated.
function checkHistory(schema: string, local: LocalMigration[], applied: AppliedRow[]): void {
  const failed = applied.filter((row) => row.finished_at === null).map((row) => row.migration_name);
  if (failed.length > 0) {
    throw new Error(
      `Schema "${schema}" has failed migrations (${failed.join(', ')}). Fix the database, then mark them rolled back (prisma migrate resolve --rolled-back).`,
    );
  }
  const edited = local.filter((migration) =>
    applied.some((row) => row.migration_name === migration.name && row.checksum !== migration.checksum),
  );
  if (edited.length > 0) {
    throw new Error(
      `Refusing to start: migrations already applied to schema "${schema}" were edited since: ${edited.map((m) => m.name).join(', ')}. Restore the files and add a new migration instead.`,
    );
  }
}
