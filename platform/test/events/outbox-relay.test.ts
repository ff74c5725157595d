import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { createEnvelope, type EventEnvelope } from '@bo/proto';
import { runWithCorrelationId } from '@bo/platform/logging';
import {
  createOutbox,
  enqueueEvent,
  listFailedOutbox,
  OutboxRelay,
  PgTransport,
  registerEventMetrics,
  retryFailedOutbox,
  sweepMessaging,
  topicMatcher,
} from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { consumerSchema, createEventsDatabase, item, itemEvent, producerSchema } from './harness';

describe('outbox relay', () => {
  let database: TestSqlDatabase;
  let transport: PgTransport;
  beforeAll(async () => {
    database = await createEventsDatabase('events_outbox');
    transport = await PgTransport.connect({ url: database.url });
  });
  afterAll(async () => {
    await transport?.close();
    await database?.drop();
  });
  const outboxRows = () =>
    database.db.$queryRawUnsafe<Array<{ id: string; name: string; status: string; correlation_id: string | null }>>(
      `SELECT id::text, name, status, correlation_id FROM "${producerSchema}".outbox_events ORDER BY occurred_at`,
    );

  it('never lets two relays publish the same row', async () => {
    const counted = itemEvent('counted');
    await transport.declareTopology([{ consumer: 'counter', events: [counted.name] }]);
    const published: EventEnvelope[] = [];
    const countingTransport = Object.assign(Object.create(transport) as PgTransport, {
      publish: async (envelope: EventEnvelope) => {
        published.push(envelope);
        await transport.publish(envelope);
      },
    });
    const enqueued = Array.from({ length: 120 }, (_, n) => createEnvelope(counted, item(n), `corr-${n}`));
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
    await database.db.$executeRawUnsafe(`DELETE FROM "${producerSchema}".outbox_events`);
  });

  it('commits a change with its events, carrying the correlation id, and nudges the relay after commit', async () => {
    const committed = itemEvent('committed');
    let nudges = 0;
    const outbox = createOutbox({ db: database.db, schema: producerSchema, relay: { nudge: () => nudges++ } });
    await runWithCorrelationId('corr-commit', () =>
      outbox.commit(async (tx, emit) => {
        await tx.$executeRawUnsafe(`INSERT INTO "${consumerSchema}".effects (event_id, n) VALUES (gen_random_uuid(), 100)`);
        emit(committed, item(100));
      }),
    );
    expect(nudges).toBe(1);
    await expect(
      outbox.commit(async (tx, emit) => {
        await tx.$executeRawUnsafe(`INSERT INTO "${consumerSchema}".effects (event_id, n) VALUES (gen_random_uuid(), 101)`);
        emit(committed, item(101));
        throw new Error('the business rule refused');
      }),
    ).rejects.toThrow('the business rule refused');
    expect(nudges).toBe(1);
    expect((await outboxRows()).map((row) => [row.name, row.correlation_id])).toEqual([[committed.name, 'corr-commit']]);
    const effects = await database.db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT n FROM "${consumerSchema}".effects WHERE n >= 100`);
    expect(effects).toEqual([{ n: 100 }]); // the refused change left neither its row nor its event
    await database.db.$executeRawUnsafe(`DELETE FROM "${producerSchema}".outbox_events`);
  });

  it('gives a row up as failed after failAfterMs, lists it, and retries it', async () => {
    const stuck = itemEvent('stuck'); // no queue is bound: every publish fails
    const envelope = createEnvelope(stuck, item(1));
    await enqueueEvent(database.db, producerSchema, envelope);
    const relay = new OutboxRelay({ db: database.db, schema: producerSchema, transport, retryBaseMs: 1, retryMaxMs: 1, failAfterMs: 300 });
    await relay.publishDue();
    expect((await outboxRows())[0].status).toBe('pending');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await relay.publishDue();
    expect((await outboxRows())[0].status).toBe('failed');
    const [failed] = await listFailedOutbox(database.db, producerSchema);
    expect(failed).toMatchObject({ id: envelope.id, name: stuck.name });
    expect(failed.lastError).toContain('UnroutableEventError');

    await transport.declareTopology([{ consumer: 'stuck-consumer', events: [stuck.name] }]);
    expect(await retryFailedOutbox(database.db, producerSchema, [envelope.id])).toBe(1);
    await relay.publishDue();
    expect((await outboxRows())[0].status).toBe('sent');
    expect(await listFailedOutbox(database.db, producerSchema)).toEqual([]);
    await database.db.$executeRawUnsafe(`DELETE FROM "${producerSchema}".outbox_events`);
  });

  it('sweeps sent outbox rows and old inbox rows, keeping pending and recent ones', async () => {
    const swept = itemEvent('swept');
    const [old, recent, pending] = [1, 2, 3].map((n) => createEnvelope(swept, item(n)));
    for (const envelope of [old, recent, pending]) await enqueueEvent(database.db, producerSchema, envelope);
    await database.db.$executeRawUnsafe(
      `UPDATE "${producerSchema}".outbox_events SET status = 'sent', sent_at = now() - CASE WHEN id = $1::uuid THEN interval '8 days' ELSE interval '1 hour' END
       WHERE id IN ($1::uuid, $2::uuid)`,
      old.id,
      recent.id,
    );
    await database.db.$executeRawUnsafe(
      `INSERT INTO "${consumerSchema}".inbox_events (consumer, event_id, name, processed_at) VALUES
       ('sweeper', $1::uuid, 'x', now() - interval '31 days'), ('sweeper', $2::uuid, 'x', now() - interval '1 day')`,
      old.id,
      recent.id,
    );
    expect(await sweepMessaging(database.db, producerSchema)).toEqual({ outbox: 1, inbox: 0, effects: 0 });
    expect(await sweepMessaging(database.db, consumerSchema)).toEqual({ outbox: 0, inbox: 1, effects: 0 });
    expect((await outboxRows()).map((row) => row.id).sort()).toEqual([recent.id, pending.id].sort());
    await expect(sweepMessaging(database.db, consumerSchema, { inboxRetentionMs: 3600_000 })).rejects.toThrow(/at least twice/);
    await database.db.$executeRawUnsafe(`DELETE FROM "${producerSchema}".outbox_events`);
  });

  it('exposes pending count, oldest age, dead letters and consumers on a registry, read at scrape', async () => {
    const registry = new Registry();
    registerEventMetrics(registry, { service: 'metered', schema: producerSchema, db: database.db, transport });
    const metered = itemEvent('metered');
    await enqueueEvent(database.db, producerSchema, { ...createEnvelope(metered, item(1)), occurredAt: new Date(Date.now() - 60_000).toISOString() });
    await enqueueEvent(database.db, producerSchema, createEnvelope(metered, item(2)));
    const subscription = await transport.consume({ service: 'metered', bindings: [metered.name], maxAttempts: 1 }, async () => {
      throw new Error('always fails');
    });
    await transport.publish(createEnvelope(metered, item(3)));
    const deadline = Date.now() + 10_000;
    while ((await transport.deadLetterDepth('metered')) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const text = await registry.metrics();
    const value = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1]);
    expect(value('events_outbox_pending')).toBe(2);
    expect(value('events_outbox_oldest_pending_seconds')).toBeGreaterThanOrEqual(59);
    expect(value('events_dead_letters')).toBe(1);
    expect(value('events_consumers_up')).toBe(1);
    expect(value('events_transport_connected')).toBe(1);
    await subscription.stop();
    expect(value('events_consumers_up')).toBe(1); // read at scrape: the old text still says 1 ...
    expect(Number((await registry.metrics()).match(/^events_consumers_up (\S+)$/m)?.[1])).toBe(0); // ... a new scrape says 0
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
