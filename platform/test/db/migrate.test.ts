import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { appendFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseConfig, migrate, openDatabase } from '../../src/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { noFilters, readMigrationList, readSchemaFiles, withSchemaEngine } from '../../scripts/schema-engine';
import { createTestDatabase, type TestDatabase } from '../../src/testing/database';
import { copyDemoSchema, demoMigrationsDir, demoSchemaDir } from './demo-fixture';

const initMigration = '20250101000000_init';
/** Every migration of the demo fixture, in the order they apply. */
const fixtureMigrations = readdirSync(demoMigrationsDir).filter((name) => name !== 'migration_lock.toml').sort();

// On the machine's PostgreSQL (15); the embedded run's tests apply every migration on PostgreSQL 18.
describe('migrate on PostgreSQL', () => {
  let testDatabase: TestDatabase | undefined;
  let config: DatabaseConfig;
  let database: Database;
  const rows = (sql: string) => database.pool.query(sql).then((r) => r.rows as Record<string, unknown>[]);

  beforeAll(async () => {
    testDatabase = await createTestDatabase('platform_db_migrate');
    config = testDatabase.config;
    database = await openDatabase(config);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase?.drop();
  });

  it('creates the schema, applies the migrations, then applies nothing on a second run', async () => {
    expect(await migrate(database, { schema: 'demo', migrationsDir: demoMigrationsDir })).toEqual({ applied: fixtureMigrations });
    expect(await migrate(database, { schema: 'demo', migrationsDir: demoMigrationsDir })).toEqual({ applied: [] });
    const tables = await rows(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'demo' ORDER BY table_name`);
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['_prisma_migrations', 'inbox_events', 'outbox_events', 'widgets']));
    expect(await rows(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`)).toEqual([{ n: 0 }]);
  });

  it("records rows with Prisma's columns and values", async () => {
    const sql = await readFile(path.join(demoMigrationsDir, initMigration, 'migration.sql'), 'utf8');
    const [row] = await rows(`SELECT * FROM demo._prisma_migrations WHERE migration_name = '${initMigration}'`);
    expect(row).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      checksum: createHash('sha256').update(sql).digest('hex'),
      migration_name: initMigration,
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect((row.finished_at as Date).getTime()).toBeGreaterThanOrEqual((row.started_at as Date).getTime());
    const columns = await rows(
      `SELECT column_name, data_type, character_maximum_length AS len, is_nullable FROM information_schema.columns
       WHERE table_schema = 'demo' AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => `${c.column_name} ${c.data_type}${c.len ? `(${c.len})` : ''} ${c.is_nullable}`)).toEqual([
      'id character varying(36) NO',
      'checksum character varying(64) NO',
      'finished_at timestamp with time zone YES',
      'migration_name character varying(255) NO',
      'logs text YES',
      'rolled_back_at timestamp with time zone YES',
      'started_at timestamp with time zone NO',
      'applied_steps_count integer NO',
    ]);
  });

  it("is seen as up to date by Prisma's own schema engine (what prisma migrate deploy runs)", async () => {
    // Like `prisma migrate deploy` with ?schema=demo, the engine finds _prisma_migrations through the search_path.
    const adapter = new PrismaPg({ connectionString: config.url, options: '-c search_path=demo' }, { schema: 'demo' });
    const migrationsList = await readMigrationList(demoMigrationsDir);
    const diagnosis = await withSchemaEngine(adapter, await readSchemaFiles(demoSchemaDir), (engine) =>
      engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters }),
    );
    expect(diagnosis).toEqual({ history: null, editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true });
  });

  it('refuses to start when an applied migration was edited', async () => {
    const schemaDir = await copyDemoSchema();
    try {
      await appendFile(path.join(schemaDir, 'migrations', initMigration, 'migration.sql'), '\n-- edited\n');
      await expect(migrate(database, { schema: 'demo', migrationsDir: path.join(schemaDir, 'migrations') })).rejects.toThrow(
        /Refusing to start: .*"demo" were edited since: 20250101000000_init/,
      );
    } finally {
      await rm(path.dirname(schemaDir), { recursive: true });
    }
  });

  it('applies each migration once when replicas start together', async () => {
    const replicas = await Promise.all([openDatabase(config), openDatabase(config)]);
    try {
      const handles = [...replicas, database];
      const results = await Promise.all(handles.map((handle) => migrate(handle, { schema: 'together', migrationsDir: demoMigrationsDir })));
      expect(results.flatMap((r) => r.applied).sort()).toEqual(fixtureMigrations);
      expect(await rows('SELECT count(*)::int AS n FROM together._prisma_migrations')).toEqual([{ n: fixtureMigrations.length }]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });
});
