import { defineEvent, type EventDefinition } from '@bo/proto';
import { z } from 'zod';
import { PgTransport, RabbitMqTransport, type EventTransport, type SqlClient } from '@bo/platform/events';
import { createMessagingTables, createTestSqlDatabase, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';

export const producerSchema = 'producer';
export const consumerSchema = 'consumer';

const itemPayload = z.object({ n: z.number(), key: z.string(), revision: z.number().int().nonnegative() });
export type ItemEvent = EventDefinition<typeof itemPayload>;

/** A test event per scenario (`test.item.<verb>`), so scenarios never share a queue binding. */
export function itemEvent(verb: string, version = 1): ItemEvent {
  return defineEvent({
    name: `test.item.${verb}`,
    version,
    payload: itemPayload,
    entity: { name: 'item', key: 'key', revision: 'revision' },
    example: { n: 1, key: 'item-1', revision: 0 },
  });
}

/** An item payload: entity `item-<n>` unless a key is given, at `revision` (default 0). */
export const item = (n: number, revision = 0, key = `item-${n}`) => ({ n, key, revision });

/** A database with producer and consumer schemas (messaging tables) and an effects table without a unique key, so duplicates would show. */
export async function createEventsDatabase(prefix: string): Promise<TestSqlDatabase & { url: string }> {
  const database = await createTestSqlDatabase(prefix);
  await createMessagingTables(database.db, producerSchema);
  await createMessagingTables(database.db, consumerSchema);
  await database.db.$executeRawUnsafe(`CREATE TABLE "${consumerSchema}".effects (event_id uuid NOT NULL, n integer NOT NULL)`);
  return database;
}

/** The consumer's store: takes the caller's transaction, never opens one. */
export const effectsStore = {
  async record(tx: SqlClient, eventId: string, n: number): Promise<void> {
    await tx.$executeRawUnsafe(`INSERT INTO "${consumerSchema}".effects (event_id, n) VALUES ($1::uuid, $2)`, eventId, n);
  },
};
export const recordEffect = effectsStore.record;

/** Effects per event id. */
export async function effectCounts(db: SqlClient): Promise<Map<string, number>> {
  const rows = await db.$queryRawUnsafe<Array<{ event_id: string; count: number }>>(
    `SELECT event_id::text, count(*)::int AS count FROM "${consumerSchema}".effects GROUP BY event_id`,
  );
  return new Map(rows.map((row) => [row.event_id, row.count]));
}

/** lost = expected ids without an effect, doubled = ids with more than one. */
export async function ledger(db: SqlClient, ids: string[]): Promise<{ expected: number; lost: number; doubled: number }> {
  const counts = await effectCounts(db);
  return {
    expected: ids.length,
    lost: ids.filter((id) => !counts.has(id)).length,
    doubled: ids.filter((id) => (counts.get(id) ?? 0) > 1).length,
  };
}

export interface TransportUnderTest {
  name: string;
  /** `url`: where the bus is (the database's, or the vhost's), for a second connection to it. */
  open(databaseUrl: string): Promise<{ transport: EventTransport; url: string; close(): Promise<void> }>;
}

export const pgTransport: TransportUnderTest = {
  name: 'postgresql',
  open: async (databaseUrl) => {
    const transport = await PgTransport.connect({ url: databaseUrl });
    return { transport, url: databaseUrl, close: () => transport.close() };
  },
};

export const rabbitMqTransport: TransportUnderTest = {
  name: 'rabbitmq',
  open: async () => {
    const vhost = await createTestVhost('events');
    const transport = await RabbitMqTransport.connect({ url: vhost.url });
    return {
      transport,
      url: vhost.url,
      close: async () => {
        await transport.close();
        await vhost.delete();
      },
    };
  },
};

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
