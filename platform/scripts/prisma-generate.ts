/**
 * Generates each service's Prisma client: `tsx platform/scripts/prisma-generate.ts [service...]`
 * (when none is named: all services with services/<name>/prisma/schema.prisma, and the platform's
 * test fixtures shaped like a service). Used by `make build`.
 *
 * Schema layout: services/<name>/prisma/ is a Prisma multi-file schema folder:
 *   schema.prisma     generator (prisma-client, output ../src/generated/prisma) and datasource
 *   *.prisma          the service's models (e.g. models.prisma)
 *   messaging.prisma  relative symlink to platform/prisma/messaging.prisma (outbox/inbox tables)
 *   migrations/       <timestamp>_<name>/migration.sql + migration_lock.toml
 * The shared messaging models are included by a symlink, not copied: `prisma generate` and the
 * schema engine (scripts/new-migration.ts) both read through it. This script creates the symlink
 * when a service lacks it, so a new service needs only schema.prisma and its models.
 *
 * The Prisma CLI wants its native schema engine even for `generate`, which never uses it, and
 * cannot download it here: any existing file in PRISMA_SCHEMA_ENGINE_BINARY satisfies the check.
 */
import { execFile } from 'node:child_process';
import { lstat, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { fixtureSchemaDirs, isMainModule, repoRoot, serviceSchemaDir, servicesWithSchema } from './service-paths';

const sharedMessagingSchema = path.join(repoRoot, 'platform/prisma/messaging.prisma');

/** Makes sure schemaDir/messaging.prisma is the relative symlink to the shared file. */
export async function linkMessagingSchema(schemaDir: string): Promise<void> {
  const link = path.join(schemaDir, 'messaging.prisma');
  const stat = await lstat(link).catch(() => null);
  if (stat?.isSymbolicLink()) return;
  if (stat) throw new Error(`${link} must be a symlink to ${sharedMessagingSchema}, not a copy`);
  await symlink(path.relative(schemaDir, sharedMessagingSchema), link);
}

export async function generatePrismaClient(schemaDir: string): Promise<void> {
  await linkMessagingSchema(schemaDir);
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
