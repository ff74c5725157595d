import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseConfig, migrate, openDatabase, platformMigrationsDir } from '../../src/db';
import { PrismaPg } from '@prisma/adapter-pg';
import { noFilters, readMigrationList, readSchemaFiles, withSchemaEngine } from '../../scripts/schema-engine';
import { createTestDatabase, type TestDatabase } from '../../src/testing/database';
import { copyDemoSchema, demoMigrationsDir, demoSchemaDir } from './demo-fixture';

const initMigration = '20250101000000_init';
const folders = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
/** Every migration of the demo fixture, in the order they apply. */
const fixtureMigrations = folders(demoMigrationsDir);
/** The platform's migrations as _prisma_migrations names them, applied before a service's own. */
const platformMigrations = folders(platformMigrationsDir).map((folder) => `platform:${folder}`);
const platformTables = ['admin_logs', 'alerts', 'applied_revisions', 'breaker_reports', 'inbox_events', 'outbox_events', 'outside_effects', 'run_steps', 'runs', 'schedules'];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pricingMigrationsDir = path.join(repoRoot, 'services/pricing/prisma/migrations');
/** Pricing's migrations that changed or went when the messaging tables moved to platform/migrations, as they were. */
const formerPricingDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/former-layout/pricing/migrations');

// On the machine's PostgreSQL (15); the embedded run's tests apply every migration on PostgreSQL 18.
describe('migrate on PostgreSQL', () => {
  let testDatabase: TestDatabase | undefined;
  let config: DatabaseConfig;
  let database: Database;
  const rows = (sql: string, params: unknown[] = []) => database.pool.query(sql, params).then((r) => r.rows as Record<string, unknown>[]);
  const tablesOf = async (schema: string) =>
    (await rows(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [schema])).map((t) => t.table_name);
  const history = (schema: string) =>
    rows(`SELECT migration_name, checksum FROM "${schema}"._prisma_migrations WHERE rolled_back_at IS NULL ORDER BY started_at, migration_name`);

  /** What a schema holds, with the schema's own name taken out: columns by name (not position), indexes, constraints. */
  async function shapeOf(schema: string) {
    const unqualified = (text: unknown) => String(text).replaceAll(`${schema}.`, '');
    const columns = await rows(
      `SELECT table_name, column_name, data_type, character_maximum_length, datetime_precision, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, column_name`,
      [schema],
    );
    const indexes = await rows(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY tablename, indexname`, [schema]);
    const constraints = await rows(
      `SELECT conrelid::regclass::text AS table_name, conname, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE connamespace = $1::regnamespace ORDER BY 1, 2`,
      [schema],
    );
    return {
      columns: columns.map((column) => ({ ...column, column_default: column.column_default === null ? null : unqualified(column.column_default) })),
      indexes: indexes.map((index) => ({ ...index, indexdef: unqualified(index.indexdef) })),
      constraints: constraints.map((c) => ({ table: unqualified(c.table_name), name: c.conname, definition: unqualified(c.definition) })),
    };
  }

  beforeAll(async () => {
    testDatabase = await createTestDatabase('platform_db_migrate');
    config = testDatabase.config;
    database = await openDatabase(config);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase?.drop();
  });

  it("applies the platform's migrations, then the service's, each recorded once; a second run applies nothing", async () => {
    const options = { schema: 'demo', migrationsDir: demoMigrationsDir, platformMigrations: true };
    expect(await migrate(database, options)).toEqual({ applied: [...platformMigrations, ...fixtureMigrations] });
    expect(await migrate(database, options)).toEqual({ applied: [] });
    expect((await history('demo')).map((row) => row.migration_name)).toEqual([...platformMigrations, ...fixtureMigrations]);
    expect(await tablesOf('demo')).toEqual(['_prisma_migrations', ...platformTables, 'widgets'].sort());
    expect(await rows(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`)).toEqual([{ n: 0 }]);
  });

  it("gives a schema that does not ask for them none of the platform's tables", async () => {
    expect(await migrate(database, { schema: 'own_only', migrationsDir: demoMigrationsDir })).toEqual({ applied: fixtureMigrations });
    expect(await tablesOf('own_only')).toEqual(['_prisma_migrations', 'widgets']);
  });

  it("records rows with Prisma's columns and values", async () => {
    const sql = await readFile(path.join(demoMigrationsDir, initMigration, 'migration.sql'), 'utf8');
    const [row] = await rows(`SELECT * FROM demo._prisma_migrations WHERE migration_name = '${initMigration}'`);
    expect(row).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      checksum: sha256(sql),
      migration_name: initMigration,
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect((row.finished_at as Date).getTime()).toBeGreaterThanOrEqual((row.started_at as Date).getTime());
    const [messaging] = await rows(`SELECT checksum FROM demo._prisma_migrations WHERE migration_name = $1`, [platformMigrations[0]]);
    expect(messaging.checksum).toBe(sha256(await readFile(path.join(platformMigrationsDir, platformMigrations[0].slice('platform:'.length), 'migration.sql'), 'utf8')));
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

  it("leaves Prisma's own schema engine nothing to apply, edited or failed (what prisma migrate deploy runs)", async () => {
    // Like `prisma migrate deploy` with ?schema=demo, the engine finds _prisma_migrations through the search_path.
    const adapter = new PrismaPg({ connectionString: config.url, options: '-c search_path=demo' }, { schema: 'demo' });
    const migrationsList = await readMigrationList(demoMigrationsDir);
    const { diagnosis, deploy } = await withSchemaEngine(adapter, await readSchemaFiles(demoSchemaDir), async (engine) => ({
      diagnosis: await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters }),
      deploy: await engine.applyMigrations({ migrationsList, filters: noFilters }),
    }));
    // The service's folder does not hold the platform's migrations: the engine names them, and only them.
    expect(diagnosis).toEqual({
      history: { diagnostic: 'migrationsDirectoryIsBehind', unpersistedMigrationNames: platformMigrations },
      editedMigrationNames: [],
      failedMigrationNames: [],
      hasMigrationsTable: true,
    });
    expect(deploy).toEqual({ appliedMigrationNames: [] });
  });

  it('refuses to start when an applied migration was edited', async () => {
    const schemaDir = await copyDemoSchema();
    try {
      await appendFile(path.join(schemaDir, 'migrations', initMigration, 'migration.sql'), '\n-- edited\n');
      await expect(migrate(database, { schema: 'demo', migrationsDir: path.join(schemaDir, 'migrations'), platformMigrations: true })).rejects.toThrow(
        /Refusing to start: .*"demo" were edited since: 20250101000000_init\./,
      );
    } finally {
      await rm(path.dirname(schemaDir), { recursive: true });
    }
  });

  it('refuses to start when an applied platform migration was edited', async () => {
    const options = { schema: 'platform_edited', migrationsDir: demoMigrationsDir, platformMigrations: true };
    await migrate(database, options);
    // What the runner compares: the checksum recorded when it was applied and the file's now.
    const latest = platformMigrations.at(-1)!;
    await rows(`UPDATE platform_edited._prisma_migrations SET checksum = $1 WHERE migration_name = $2`, [sha256('an older text'), latest]);
    await expect(migrate(database, options)).rejects.toThrow(new RegExp(`Refusing to start: .*"platform_edited" were edited since: ${latest}\\.`));
  });

  it('applies each migration once when replicas start together', async () => {
    const replicas = await Promise.all([openDatabase(config), openDatabase(config)]);
    try {
      const handles = [...replicas, database];
      const results = await Promise.all(handles.map((handle) => migrate(handle, { schema: 'together', migrationsDir: demoMigrationsDir, platformMigrations: true })));
      const all = [...platformMigrations, ...fixtureMigrations];
      expect(results.flatMap((r) => r.applied).sort()).toEqual([...all].sort());
      expect((await history('together')).map((row) => row.migration_name)).toEqual(all);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('starts a schema migrated when every service held its own messaging tables, and leaves it like a fresh one', async () => {
    // Pricing's folder as it was: its migrations written before the platform's first, with the former
    // init, plus the messaging step since deleted. (Later ones, such as the audit triggers, need the platform's.)
    const before = await mkdtemp(path.join(tmpdir(), 'pricing-before-'));
    const [init] = folders(formerPricingDir);
    const firstPlatform = folders(platformMigrationsDir)[0]!;
    const later = folders(pricingMigrationsDir).filter((folder) => folder > firstPlatform);
    try {
      await cp(pricingMigrationsDir, before, { recursive: true });
      for (const folder of later) await rm(path.join(before, folder), { recursive: true });
      await cp(formerPricingDir, before, { recursive: true, force: true });
      await rm(path.join(before, init, 'former-checksums'));
      expect(await readFile(path.join(pricingMigrationsDir, init, 'former-checksums'), 'utf8')).toContain(
        sha256(await readFile(path.join(before, init, 'migration.sql'), 'utf8')),
      );
      // The former runner: the service's own folder, no platform set.
      expect((await migrate(database, { schema: 'pricing', migrationsDir: before })).applied).toEqual(folders(before));
    } finally {
      await rm(before, { recursive: true });
    }

    const now = { migrationsDir: pricingMigrationsDir, platformMigrations: true };
    expect(await migrate(database, { schema: 'pricing', ...now })).toEqual({ applied: [...platformMigrations, ...later] });
    expect(await migrate(database, { schema: 'pricing', ...now })).toEqual({ applied: [] });
    const recorded = new Map((await history('pricing')).map((row) => [row.migration_name, row.checksum]));
    for (const folder of folders(pricingMigrationsDir)) {
      expect(recorded.get(folder), folder).toBe(sha256(await readFile(path.join(pricingMigrationsDir, folder, 'migration.sql'), 'utf8')));
    }
    // Applied but no longer in the folder: kept as history, accepted.
    expect(recorded.has('20261123140322_messaging_revisions_effects_failed')).toBe(true);

    await migrate(database, { schema: 'pricing_fresh', ...now });
    expect(await tablesOf('pricing')).toEqual(await tablesOf('pricing_fresh'));
    expect(await shapeOf('pricing')).toEqual(await shapeOf('pricing_fresh'));
  });

  it('brings a schema that stopped at the first messaging shape (only the former init applied) to the fresh shape', async () => {
    const before = await mkdtemp(path.join(tmpdir(), 'pricing-first-'));
    const [init] = folders(formerPricingDir);
    try {
      await cp(path.join(formerPricingDir, init), path.join(before, init), { recursive: true });
      await migrate(database, { schema: 'pricing_first', migrationsDir: before });
    } finally {
      await rm(before, { recursive: true });
    }
    const now = { migrationsDir: pricingMigrationsDir, platformMigrations: true };
    expect((await migrate(database, { schema: 'pricing_first', ...now })).applied).toEqual([...platformMigrations, ...folders(pricingMigrationsDir).filter((folder) => folder !== init)]);
    await migrate(database, { schema: 'pricing_first_fresh', ...now });
    expect(await shapeOf('pricing_first')).toEqual(await shapeOf('pricing_first_fresh'));
  });
});
