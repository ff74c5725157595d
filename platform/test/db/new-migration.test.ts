import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMigration } from '../../scripts/new-migration';
import { migrate, openDatabase } from '../../src/db';
import { copyDemoSchema, demoSchemaDir } from './demo-fixture';

let schemaDir: string;
beforeAll(async () => {
  schemaDir = await copyDemoSchema();
});
afterAll(async () => {
  await rm(path.dirname(schemaDir), { recursive: true });
});

it('says "no changes" while the migrations match the schema', async () => {
  expect(await createMigration(demoSchemaDir, 'nothing')).toBeNull();
});

it('writes a migration for an added model, which then applies on top of the existing ones', async () => {
  await appendFile(path.join(schemaDir, 'models.prisma'), '\nmodel Gadget {\n  id    Int    @id\n  label String\n\n  @@map("gadgets")\n}\n');
  const folder = await createMigration(schemaDir, 'add_gadgets', new Date('2025-02-03T04:05:06Z'));
  expect(folder).toBe('20250203040506_add_gadgets');
  const sql = await readFile(path.join(schemaDir, 'migrations', folder!, 'migration.sql'), 'utf8');
  expect(sql).toContain('CREATE TABLE "gadgets"');
  expect(sql).not.toContain('widgets');
  expect((await readdir(path.join(schemaDir, 'migrations'))).sort()).toEqual(['20250101000000_init', folder, 'migration_lock.toml']);

  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    const { applied } = await migrate(database, { schema: 'demo', migrationsDir: path.join(schemaDir, 'migrations') });
    expect(applied).toEqual(['20250101000000_init', folder]);
  } finally {
    await database.close();
  }
  expect(await createMigration(schemaDir, 'again')).toBeNull();
});

it('rejects a name that is not snake_case', async () => {
  await expect(createMigration(schemaDir, 'Add Gadgets')).rejects.toThrow(/snake_case/);
});
