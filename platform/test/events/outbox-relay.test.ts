import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope, type EventEnvelope } from '@bo/proto';
import { enqueueEvent, MemoryTransport, OutboxRelay, topicMatcher } from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { createEventsDatabase, itemEvent, producerSchema } from './harness';

describe('outbox relay', () => {
  let database: TestSqlDatabase;
  beforeAll(async () => {
    database = await createEventsDatabase('events_outbox');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('never lets two relays publish the same row', async () => {
    const counted = itemEvent('counted');
    const transport = new MemoryTransport();
    await transport.consume({ service: 'counter', bindings: [counted.name] }, async () => {});
    const published: EventEnvelope[] = [];
    const countingTransport = Object.assign(Object.create(transport) as MemoryTransport, {
      publish: async (envelope: EventEnvelope) => {
        published.push(envelope);
        await transport.publish(envelope);
      },
    });
    const enqueued = Array.from({ length: 120 }, (_, n) => createEnvelope(counted, { n }, `corr-${n}`));
    await database.db.$transaction(async (tx) => {
      for (const envelope of enqueued) await enqueueEvent(tx, producerSchema, envelope);
    });
    const relays = [1, 2].map(() => new OutboxRelay({ db: database.db, schema: producerSchema, transport: countingTransport, batchSize: 7 }));
    const drain = async (relay: OutboxRelay) => {
      while ((await relay.publishDue()) > 0);
    };
    await Promise.all(relays.map(drain));
    expect(published).toHaveLength(120);
    expect(new Set(published.map((envelope) => envelope.id)).size).toBe(120);
    // The envelope read back from the row is the one written.
    const byId = new Map(published.map((envelope) => [envelope.id, envelope]));
    for (const envelope of enqueued) expect(byId.get(envelope.id)).toEqual(envelope);
    await transport.close();
  });
});

describe('topic bindings', () => {
  it.each([
    ['payments.invoice.paid', 'payments.invoice.paid', true],
    ['streaming.key.*', 'streaming.key.assigned', true],
    ['streaming.key.*', 'streaming.key', false],
    ['streaming.#', 'streaming.key.assigned', true],
    ['streaming.#', 'streaming', true],
    ['#.paid', 'payments.invoice.paid', true],
    ['#', 'anything.at.all', true],
    ['payments.*.paid', 'payments.invoice.refunded', false],
  ])('%s matches %s: %s', (binding, name, expected) => {
    expect(topicMatcher(binding)(name)).toBe(expected);
  });
});
