import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type Database, migrate, openDatabase, type SqlClient } from '../../src/db';
import { createTestDatabase, type TestDatabase } from '../../src/testing/database';
import { generatePrismaClient } from '../../scripts/prisma-generate';
import type { PrismaClient } from '../fixtures/demo/src/generated/prisma/client';
import { demoMigrationsDir, demoSchemaDir } from './demo-fixture';

let DemoClient: typeof PrismaClient;

beforeAll(async () => {
  await generatePrismaClient(demoSchemaDir);
  ({ PrismaClient: DemoClient } = await import('../fixtures/demo/src/generated/prisma/client'));
});

/** Two services' clients on one pool, each in its own schema. */
async function openTwoServices(database: Database) {
  for (const schema of ['alpha', 'beta']) await migrate(database, { schema, migrationsDir: demoMigrationsDir });
  return { alpha: createPrismaClient(DemoClient, database, 'alpha'), beta: createPrismaClient(DemoClient, database, 'beta') };
}

describe('Prisma clients on PostgreSQL', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let alpha: PrismaClient;
  let beta: PrismaClient;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('platform_db_client');
    database = await openDatabase(testDatabase.config);
    ({ alpha, beta } = await openTwoServices(database));
  });
  afterAll(async () => {
    await Promise.all([alpha.$disconnect(), beta.$disconnect()]);
    await database.close();
    await testDatabase.drop();
  });

  it('reads and writes each service its own tables through one pool', async () => {
    await alpha.widget.create({ data: { name: 'only-in-alpha' } });
    await beta.$transaction(async (tx) => tx.widget.create({ data: { name: 'only-in-beta' } }));
    expect((await alpha.widget.findMany()).map((w) => w.name)).toEqual(['only-in-alpha']);
    expect((await beta.widget.findMany()).map((w) => w.name)).toEqual(['only-in-beta']);
    expect(await alpha.$queryRawUnsafe('SELECT count(*)::int AS n FROM public.widgets').catch((e: Error) => e.message)).toMatch(/does not exist/);
    const raw: SqlClient = alpha;
    expect(await raw.$queryRawUnsafe('SELECT name FROM beta.widgets')).toEqual([{ name: 'only-in-beta' }]);
  });

  it("maps a unique violation to Prisma's P2002", async () => {
    await alpha.widget.create({ data: { name: 'twice' } });
    await expect(alpha.widget.create({ data: { name: 'twice' } })).rejects.toMatchObject({ code: 'P2002' });
  });
});
