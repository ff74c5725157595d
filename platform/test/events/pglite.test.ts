import { PGlite, type Transaction } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { enqueueEvent, MemoryTransport, onEvent, OutboxRelay, subscribe, type SqlClient, type TransactionalSqlClient } from '@bo/platform/events';
import { createMessagingTables } from '@bo/platform/testing/pg-sql';
import { consumerSchema, itemEvent, producerSchema, recordEffect, waitFor } from './harness';

function sqlOver(db: PGlite | Transaction): SqlClient {
  return {
    $executeRawUnsafe: async (query, ...values) => (await db.query(query, values)).affectedRows ?? 0,
    $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await db.query(query, values)).rows as T,
  };
}

// The embedded mode: one PGlite session shared by every service schema, the in-memory transport.
describe('outbox and inbox on PGlite with the in-memory transport', () => {
  let pglite: PGlite;
  let db: TransactionalSqlClient;
  beforeAll(async () => {
    pglite = await PGlite.create();
    db = { ...sqlOver(pglite), $transaction: (fn) => pglite.transaction((tx) => fn(sqlOver(tx))) };
    await createMessagingTables(db, producerSchema);
    await createMessagingTables(db, consumerSchema);
    await db.$executeRawUnsafe(`CREATE TABLE "${consumerSchema}".effects (event_id uuid NOT NULL, n integer NOT NULL)`);
  });
  afterAll(async () => {
    await pglite?.close();
  });

  it('relays, consumes and dedupes with the same SQL', async () => {
    const embedded = itemEvent('embedded');
    const transport = new MemoryTransport();
    await subscribe({
      service: 'embedded',
      schema: consumerSchema,
      db,
      transport,
      events: [onEvent(embedded, (tx, envelope) => recordEffect(tx, envelope.id, envelope.payload.n))],
    });
    const envelope = createEnvelope(embedded, { n: 42 });
    await db.$transaction((tx) => enqueueEvent(tx, producerSchema, envelope));
    const relay = new OutboxRelay({ db, schema: producerSchema, transport });
    relay.start();
    await transport.publish(envelope); // a duplicate on top of the relayed copy
    const effects = async () => db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT n FROM "${consumerSchema}".effects`);
    await waitFor(async () => (await effects()).length > 0);
    await relay.stop();
    await transport.close();
    expect(await effects()).toEqual([{ n: 42 }]);
    const [row] = await db.$queryRawUnsafe<Array<{ status: string }>>(`SELECT status FROM "${producerSchema}".outbox_events`);
    expect(row.status).toBe('sent');
  });
});
