import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMigration } from '../../scripts/new-migration';
import { readPlatformTables } from '../../scripts/schema-engine';
import { serviceSchemaDir, servicesWithSchema } from '../../scripts/service-paths';
import { migrate, openDatabase, platformMigrationsDir } from '../../src/db';
import { createTestDatabase } from '../../src/testing/database';
import { copyDemoSchema, demoMigrationsDir, demoSchemaDir } from './demo-fixture';

let schemaDir: string;
beforeAll(async () => {
  schemaDir = await copyDemoSchema();
});
afterAll(async () => {
  await rm(path.dirname(schemaDir), { recursive: true });
});

it('says "no changes" while the migrations match the schema', { timeout: 120_000 }, async () => {
  expect(await createMigration(demoSchemaDir, 'nothing')).toBeNull();
});

it('writes a migration for an added model, which then applies on top of the existing ones', { timeout: 120_000 }, async () => {
  // A service migration may use the platform's tables (they are applied first): it replays, and the diff leaves them alone.
  const existing = [...(await readdir(demoMigrationsDir)).filter((name) => name !== 'migration_lock.toml'), '20250102000000_first_run'].sort();
  await mkdir(path.join(schemaDir, 'migrations', '20250102000000_first_run'));
  await writeFile(
    path.join(schemaDir, 'migrations', '20250102000000_first_run', 'migration.sql'),
    `INSERT INTO "runs" ("id", "kind", "started_by") VALUES ('00000000-0000-4000-8000-000000000001', 'demo', 'migration');\n`,
  );
  await appendFile(path.join(schemaDir, 'models.prisma'), '\nmodel Gadget {\n  id    Int    @id\n  label String\n\n  @@map("gadgets")\n}\n');
  const folder = await createMigration(schemaDir, 'add_gadgets', new Date('2025-02-03T04:05:06Z'));
  expect(folder).toBe('20250203040506_add_gadgets');
  const sql = await readFile(path.join(schemaDir, 'migrations', folder!, 'migration.sql'), 'utf8');
  expect(sql).toContain('CREATE TABLE "gadgets"');
  expect(sql).not.toMatch(/widgets|runs|outbox_events/);
  expect((await readdir(path.join(schemaDir, 'migrations'))).sort()).toEqual([...existing, folder, 'migration_lock.toml'].sort());

  const testDatabase = await createTestDatabase('platform_new_migration');
  const database = await openDatabase(testDatabase.config);
  try {
    const { applied } = await migrate(database, { schema: 'demo', migrationsDir: path.join(schemaDir, 'migrations'), platformMigrations: true });
    const platform = (await readdir(platformMigrationsDir)).sort().map((name) => `platform:${name}`);
    expect(applied).toEqual([...platform, ...existing, folder]);
  } finally {
    await database.close();
    await testDatabase.drop();
  }
  expect(await createMigration(schemaDir, 'again')).toBeNull();
});

// platform/migrations creates these in every schema, the gateway's too. A model for one in a
// process's Prisma schema would make `make migration` create it again.
it("declares the platform's tables in no process's Prisma schema or migrations", async () => {
  const { tables } = await readPlatformTables(platformMigrationsDir);
  expect(tables).toEqual(expect.arrayContaining(['outbox_events', 'inbox_events', 'applied_revisions', 'outside_effects', 'runs', 'run_steps', 'schedules']));
  const declarations: string[] = [];
  for (const schemaDir of [...servicesWithSchema().map(serviceSchemaDir), demoSchemaDir]) {
    const files = (await readdir(schemaDir, { recursive: true })).filter((file) => file.endsWith('.prisma') || file.endsWith('.sql'));
    for (const file of files) {
      const text = await readFile(path.join(schemaDir, file), 'utf8');
      for (const table of tables) {
        if (new RegExp(`CREATE TABLE (IF NOT EXISTS )?"${table}"|@@map\\("${table}"\\)`).test(text)) declarations.push(`${path.join(schemaDir, file)}: ${table}`);
      }
    }
  }
  expect(declarations).toEqual([]);
});

it('rejects a name that is not snake_case', async () => {
  await expect(createMigration(schemaDir, 'Add Gadgets')).rejects.toThrow(/snake_case/);
});
