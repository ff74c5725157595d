import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMigration } from '../../scripts/new-migration';
import { migrate, openDatabase } from '../../src/db';
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
  await appendFile(path.join(schemaDir, 'models.prisma'), '\nmodel Gadget {\n  id    Int    @id\n  label String\n\n  @@map("gadgets")\n}\n');
  const folder = await createMigration(schemaDir, 'add_gadgets', new Date('2025-02-03T04:05:06Z'));
  expect(folder).toBe('20250203040506_add_gadgets');
  const sql = await readFile(path.join(schemaDir, 'migrations', folder!, 'migration.sql'), 'utf8');
  expect(sql).toContain('CREATE TABLE "gadgets"');
  expect(sql).not.toContain('widgets');
  const existing = (await readdir(demoMigrationsDir)).filter((name) => name !== 'migration_lock.toml').sort();
  expect((await readdir(path.join(schemaDir, 'migrations'))).sort()).toEqual([...existing, folder, 'migration_lock.toml'].sort());

  const testDatabase = await createTestDatabase('platform_new_migration');
  const database = await openDatabase(testDatabase.config);
  try {
    const { applied } = await migrate(database, { schema: 'demo', migrationsDir: path.join(schemaDir, 'migrations') });
    expect(applied).toEqual([...existing, folder].sort());
  } finally {
    await database.close();
    await testDatabase.drop();
  }
  expect(await createMigration(schemaDir, 'again')).toBeNull();
});

it('rejects a name that is not snake_case', async () => {
  await expect(createMigration(schemaDir, 'Add Gadgets')).rejects.toThrow(/snake_case/);
});
