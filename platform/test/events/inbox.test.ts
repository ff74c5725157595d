import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { createPrismaClient, migrate, openDatabase, type Database } from '@bo/platform/db';
import { onEvent, PgTransport, subscribe, type Subscription } from '@bo/platform/events';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { PrismaClient, type Prisma } from '../fixtures/demo/src/generated/prisma/client';
import { demoMigrationsDir } from '../db/demo-fixture';
import { item, itemEvent, waitFor } from './harness';

/** The demo service's store: it takes the caller's transaction and never opens one itself. */
const widgetStore = {
  async add(tx: Prisma.TransactionClient, name: string): Promise<void> {
    await tx.widget.create({ data: { name } });
  },
};

// Consumers written the natural way: the inbox hands the service's TYPED Prisma transaction to the
// handler, which calls a store method with it.
describe('inbox on a Prisma client (PostgreSQL)', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let prisma: PrismaClient;
  let transport: PgTransport;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('events_inbox');
    database = await openDatabase(testDatabase.config);
    await migrate(database, { schema: 'demo', migrationsDir: demoMigrationsDir, platformMigrations: true });
    prisma = createPrismaClient(PrismaClient, database, 'demo');
    transport = await PgTransport.connect({ url: testDatabase.url, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await transport?.close();
    await prisma?.$disconnect();
    await database?.close();
    await testDatabase?.drop();
  });

  const widgets = async () => (await prisma.widget.findMany({ orderBy: { id: 'asc' } })).map((widget) => widget.name);
  const inbox = (consumer: string) =>
    prisma.$queryRawUnsafe<Array<{ event_id: string; outcome: string }>>(
      `SELECT event_id::text, outcome FROM demo.inbox_events WHERE consumer = $1 ORDER BY processed_at`,
      consumer,
    );

  it('rolls the effect back with its inbox row when the handler throws after writing', async () => {
    const added = itemEvent('added');
    subscriptions.push(
      await subscribe({
        service: 'widgets',
        schema: 'demo',
        db: prisma,
        transport,
        maxAttempts: 1,
        events: [
          onEvent(added, async (tx: Prisma.TransactionClient, envelope) => {
            await widgetStore.add(tx, envelope.payload.key);
            if (envelope.payload.n === 13) throw new Error('failed after the write');
          }),
        ],
      }),
    );
    const good = createEnvelope(added, item(1, 0, 'good-widget'));
    const bad = createEnvelope(added, item(13, 0, 'bad-widget'));
    await transport.publish(bad);
    await transport.publish(good);
    await waitFor(async () => (await transport.deadLetterDepth('widgets')) === 1 && (await inbox('widgets')).length === 1, 10_000, 'one effect, one dead letter');
    expect(await widgets()).toEqual(['good-widget']);
    expect((await inbox('widgets')).map((row) => row.event_id)).toEqual([good.id]);
  });

  it('skips an event older than the revision already applied, recording it as stale', async () => {
    const renamed = itemEvent('renamed');
    const applied: number[] = [];
    subscriptions.push(
      await subscribe({
        service: 'renames',
        schema: 'demo',
        db: prisma,
        transport,
        events: [onEvent(renamed, async (_tx, envelope) => void applied.push(envelope.payload.revision))],
      }),
    );
    // Revision 3 overtakes revision 2 (order is not guaranteed); another entity is unaffected.
    const [third, second, other] = [createEnvelope(renamed, item(1, 3, 'w-1')), createEnvelope(renamed, item(2, 2, 'w-1')), createEnvelope(renamed, item(3, 1, 'w-2'))];
    for (const envelope of [third, second, other]) {
      await transport.publish(envelope);
      await waitFor(async () => (await inbox('renames')).some((row) => row.event_id === envelope.id), 10_000, 'the inbox row');
    }
    expect(applied).toEqual([3, 1]);
    const outcomes = new Map((await inbox('renames')).map((row) => [row.event_id, row.outcome]));
    expect([outcomes.get(third.id), outcomes.get(second.id), outcomes.get(other.id)]).toEqual(['applied', 'stale', 'applied']);
  });

  it('applies an overtaken event once all the same when its handler takes everyRevision', async () => {
    const sold = itemEvent('sold');
    const applied: number[] = [];
    subscriptions.push(
      await subscribe({
        service: 'sales',
        schema: 'demo',
        db: prisma,
        transport,
        events: [onEvent(sold, async (_tx, envelope) => void applied.push(envelope.payload.revision), { everyRevision: true })],
      }),
    );
    const [third, second] = [createEnvelope(sold, item(1, 3, 's-1')), createEnvelope(sold, item(2, 2, 's-1'))];
    // Revision 3 overtakes revision 2: both have their effect.
    for (const envelope of [third, second]) {
      await transport.publish(envelope);
      await waitFor(async () => (await inbox('sales')).some((row) => row.event_id === envelope.id), 10_000, 'the inbox row');
    }
    expect(applied).toEqual([3, 2]);
    expect((await inbox('sales')).map((row) => row.outcome)).toEqual(['applied', 'applied']);
  });

  it('accepts the current and the next version, and dead-letters one two ahead', async () => {
    const v1 = itemEvent('versioned', 1);
    const seen: number[] = [];
    subscriptions.push(
      await subscribe({
        service: 'versions',
        schema: 'demo',
        db: prisma,
        transport,
        events: [onEvent(v1, async (_tx, envelope) => void seen.push(envelope.version))],
      }),
    );
    const current = createEnvelope(v1, item(1));
    // Version 2 added a field: the version-1 consumer parses it with its own schema and ignores the field.
    const next = { ...createEnvelope(itemEvent('versioned', 2), item(2)), payload: { ...item(2), colour: 'red' } };
    const tooNew = createEnvelope(itemEvent('versioned', 3), item(3));
    for (const envelope of [current, next, tooNew]) await transport.publish(envelope);
    await waitFor(async () => (await transport.deadLetterDepth('versions')) === 1 && seen.length === 2, 10_000, 'two effects and a dead letter');
    expect(seen.sort()).toEqual([1, 2]);
    const [letter] = await transport.listDeadLetters('versions');
    expect(letter).toMatchObject({ id: tooNew.id, attempts: 1 });
    expect(letter.reason).toContain('accepts 1 and 2');
  });
});
