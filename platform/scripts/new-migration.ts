/**
 * Writes the next migration of a service from the difference between its migrations and its
 * schema: `tsx platform/scripts/new-migration.ts --service <name> --name <snake_name>`
 * (what `make migration NAME=… SERVICE=…` calls). Offline: Prisma's schema engine as WebAssembly,
 * the existing migrations replayed on a throw-away in-memory PGlite after platform/migrations
 * (every schema, the gateway's too, holds the platform's tables; the diff leaves those alone).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { platformMigrationsDir } from '../src/db/migrate';
import { diffMigrationsToSchema, MIGRATION_LOCK, readPlatformTables } from './schema-engine';
import { isMainModule, serviceSchemaDir } from './service-paths';

/**
 * Creates <schemaDir>/migrations/<timestamp>_<name>/migration.sql; returns its folder name, or null
 * when nothing changed.
 */
export async function createMigration(schemaDir: string, name: string, now = new Date()): Promise<string | null> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Migration name must be snake_case (a-z, 0-9, _): ${name}`);
  const migrationsDir = path.join(schemaDir, 'migrations');
  const sql = await diffMigrationsToSchema(schemaDir, migrationsDir, await readPlatformTables(platformMigrationsDir));
  if (sql === null) return null;
  const folder = `${now.toISOString().replace(/\D/g, '').slice(0, 14)}_${name}`;
  await mkdir(path.join(migrationsDir, folder), { recursive: true });
  await writeFile(path.join(migrationsDir, folder, 'migration.sql'), sql);
  await writeFile(path.join(migrationsDir, 'migration_lock.toml'), MIGRATION_LOCK);
  return folder;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { service: { type: 'string' }, name: { type: 'string' } } });
  if (!values.service || !values.name) throw new Error('usage: new-migration.ts --service <name> --name <snake_name>');
  const schemaDir = serviceSchemaDir(values.service);
  const folder = await createMigration(schemaDir, values.name);
  // The gateway's schema is not under services/: name the file where it is.
  console.log(folder === null ? 'no changes' : `created ${path.relative(process.cwd(), path.join(schemaDir, 'migrations', folder, 'migration.sql'))}`);
}

if (isMainModule(import.meta.url)) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
