import { defineEvent, type EventDefinition } from '@bo/proto';
import { z } from 'zod';
import { MemoryTransport, RabbitMqTransport, type EventTransport, type SqlClient } from '@bo/platform/events';
import { createMessagingTables, createTestSqlDatabase, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';

export const producerSchema = 'producer';
export const consumerSchema = 'consumer';

/** A test event per scenario (`test.item.<verb>`), so scenarios never share a queue binding. */
export function itemEvent(verb: string): EventDefinition<z.ZodObject<{ n: z.ZodNumber }>> {
  return defineEvent({ name: `test.item.${verb}`, version: 1, payload: z.object({ n: z.number() }), example: { n: 1 } });
}

/** A database with producer and consumer schemas (outbox/inbox) and an effects table without a unique key, so duplicates would show. */
export async function createEventsDatabase(prefix: string): Promise<TestSqlDatabase> {
  const database = await createTestSqlDatabase(prefix);
  await createMessagingTables(database.db, producerSchema);
  await createMessagingTables(database.db, consumerSchema);
  await database.db.$executeRawUnsafe(`CREATE TABLE "${consumerSchema}".effects (event_id uuid NOT NULL, n integer NOT NULL)`);
  return database;
}

export async function recordEffect(tx: SqlClient, eventId: string, n: number): Promise<void> {
  await tx.$executeRawUnsafe(`INSERT INTO "${consumerSchema}".effects (event_id, n) VALUES ($1::uuid, $2)`, eventId, n);
}

/** Effects per event id. */
export async function effectCounts(db: SqlClient): Promise<Map<string, number>> {
  const rows = await db.$queryRawUnsafe<Array<{ event_id: string; count: number }>>(
    `SELECT event_id::text, count(*)::int AS count FROM "${consumerSchema}".effects GROUP BY event_id`,
  );
  return new Map(rows.map((row) => [row.event_id, row.count]));
}

export interface TransportUnderTest {
  name: string;
  open(): Promise<{ transport: EventTransport; close(): Promise<void> }>;
}

export const memoryTransport: TransportUnderTest = {
  name: 'in-memory',
  open: async () => {
    const transport = new MemoryTransport();
    return { transport, close: () => transport.close() };
  },
};

export const rabbitMqTransport: TransportUnderTest = {
  name: 'rabbitmq',
  open: async () => {
    const vhost = await createTestVhost('events');
    const transport = await RabbitMqTransport.connect({ url: vhost.url });
    return {
      transport,
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
