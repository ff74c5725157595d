import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, inTransaction, quoteIdentifier, type TransactionSession } from './database';

/**
 * The platform's own migrations (Prisma's layout, hand-written SQL): the tables every domain
 * service's schema holds (messaging, runs). Applied before the service's migrations and recorded in
 * the same `_prisma_migrations` table as `platform:<folder>`.
 */
export const platformMigrationsDir = fileURLToPath(new URL('../../migrations', import.meta.url));
const PLATFORM_PREFIX = 'platform:';

/**
 * A migration folder may hold, beside migration.sql, a `former-checksums` file: the sha256 of
 * texts the file had before it was edited on purpose (one a line, `#` comments). A schema that
 * recorded one of them is accepted and its row is given the current checksum; any other
 * difference is still refused.
 */
const FORMER_CHECKSUMS_FILE = 'former-checksums';

export type MigrateOptions = {
  /** PostgreSQL schema of the service; created when missing. */
  schema: string;
  /** The service's prisma/migrations folder (Prisma's layout: <timestamp>_<name>/migration.sql). */
  migrationsDir: string;
  /**
   * Apply platformMigrationsDir first. Every process does (defineService and the gateway set it);
   * only tests of the runner itself migrate a schema without them.
   */
  platformMigrations?: boolean;
};

type LocalMigration = { name: string; sql: string; checksum: string; formerChecksums: string[] };
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
 * Applies the pending migrations of one service, the platform's first (when asked) then its own,
 * each set in name order, each migration in its own transaction with the service schema as
 * search_path. Every transaction first takes an advisory lock per schema and re-reads the applied
 * list, so replicas starting together apply each migration once. Refuses to run when an applied
 * migration's file changed (unless to a text its former-checksums names) or a migration is
 * recorded as failed.
 */
export async function migrate(
  database: Database,
  { schema, migrationsDir, platformMigrations = false }: MigrateOptions,
): Promise<{ applied: string[] }> {
  const local = [
    ...(platformMigrations ? await readMigrations(platformMigrationsDir, PLATFORM_PREFIX) : []),
    ...(await readMigrations(migrationsDir)),
  ];
  const applied: string[] = [];
  await inSchemaTransaction(database, schema, async (session) => {
    await session.exec(MIGRATIONS_TABLE_DDL);
    const history = await readApplied(session);
    checkHistory(schema, local, history);
    await recordCurrentChecksums(session, local, history);
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

/** The folder's migrations in name order, each named `<prefix><folder>` in _prisma_migrations. */
async function readMigrations(migrationsDir: string, prefix = ''): Promise<LocalMigration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    folders.map(async (folder) => {
      const sql = await readFile(path.join(migrationsDir, folder, 'migration.sql'), 'utf8');
      const formerChecksums = await readFormerChecksums(path.join(migrationsDir, folder, FORMER_CHECKSUMS_FILE));
      return { name: `${prefix}${folder}`, sql, checksum: createHash('sha256').update(sql).digest('hex'), formerChecksums };
    }),
  );
}

async function readFormerChecksums(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const malformed = lines.filter((line) => !/^[0-9a-f]{64}$/.test(line));
  if (malformed.length > 0) throw new Error(`${file}: every line must be a sha256 in hex or a # comment, not: ${malformed.join(', ')}`);
  return lines;
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
    applied.some((row) => row.migration_name === migration.name && !accepts(migration, row.checksum)),
  );
  if (edited.length > 0) {
    throw new Error(
      `Refusing to start: migrations already applied to schema "${schema}" were edited since: ${edited.map((m) => m.name).join(', ')}. Restore the files and add a new migration instead.`,
    );
  }
}

const accepts = (migration: LocalMigration, recorded: string) => recorded === migration.checksum || migration.formerChecksums.includes(recorded);

/** Rows that recorded a former text of their file (see FORMER_CHECKSUMS_FILE) now record the current one. */
async function recordCurrentChecksums(session: TransactionSession, local: LocalMigration[], applied: AppliedRow[]): Promise<void> {
  for (const migration of local) {
    const former = applied.filter((row) => row.migration_name === migration.name && row.checksum !== migration.checksum);
    if (former.length === 0) continue;
    await session.query('UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2 AND rolled_back_at IS NULL', [
      migration.checksum,
      migration.name,
    ]);
  }
}
