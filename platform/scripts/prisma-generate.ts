/**
 * Generates each service's Prisma client: `tsx platform/scripts/prisma-generate.ts [service...]`
 * (when none is named: all services with services/<name>/prisma/schema.prisma, and the platform's
 * test fixtures shaped like a service). Used by `make build`.
 *
 * Schema layout: services/<name>/prisma/ is a Prisma multi-file schema folder:
 *   schema.prisma     generator (prisma-client, output ../src/generated/prisma) and datasource
 *   *.prisma          the service's models (e.g. models.prisma)
 *   migrations/       <timestamp>_<name>/migration.sql + migration_lock.toml
 * The platform's tables (messaging, runs) are not in it: platform/migrations creates them in every
 * domain service's schema and platform code reaches them with raw SQL, so a service's client and
 * `make migration` see only the service's own tables.
 *
 * The Prisma CLI wants its native schema engine even for `generate`, which never uses it, and
 * cannot download it here: any existing file in PRISMA_SCHEMA_ENGINE_BINARY satisfies the check.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixtureSchemaDirs, isMainModule, repoRoot, serviceSchemaDir, servicesWithSchema } from './service-paths';

export async function generatePrismaClient(schemaDir: string): Promise<void> {
  const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');
  await promisify(execFile)(process.execPath, [prismaCli, 'generate', '--schema', schemaDir], {
    env: {
      ...process.env,
      PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    },
  });
}

async function main(): Promise<void> {
  const services = process.argv.slice(2);
  const schemaDirs = services.length > 0 ? services.map(serviceSchemaDir) : [...servicesWithSchema().map(serviceSchemaDir), ...fixtureSchemaDirs()];
  for (const schemaDir of schemaDirs) {
    await generatePrismaClient(schemaDir);
    console.log(`prisma client generated for ${path.relative(repoRoot, schemaDir)}`);
  }
}

if (isMainModule(import.meta.url)) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
