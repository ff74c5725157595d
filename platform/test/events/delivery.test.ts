import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEnvelope, type EventEnvelope } from '@bo/proto';
import { enqueueEvent, OutboxRelay, outboxDefaults, PgTransport, RabbitMqTransport, subscribe, onEvent, type EventTransport, type Subscription } from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import {
  consumerSchema,
  createEventsDatabase,
  effectCounts,
  effectsStore,
  item,
  itemEvent,
  pgTransport,
  producerSchema,
  rabbitMqTransport,
  waitFor,
  type ItemEvent,
} from './harness';

// The same promises on both transports: RabbitMQ (distributed run) and PostgreSQL (embedded run).
describe.each([pgTransport, rabbitMqTransport])('events over $name', (transportUnderTest) => {
  let database: TestSqlDatabase;
  let transport: EventTransport;
  let busUrl: string;
  let closeTransport: () => Promise<void>;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    database = await createEventsDatabase('events_delivery');
    ({ transport, url: busUrl, close: closeTransport } = await transportUnderTest.open(database.url));
  });
  afterAll(async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await closeTransport?.();
    await database?.drop();
  });

  /**
   * Subscribes `service` to `definition`, recording an effect per handled event. `settled` counts
   * deliveries whose handling finished (the transport acks right after), duplicates included.
   */
  async function consumeInto(service: string, definition: ItemEvent, beforeEffect?: (envelope: EventEnvelope<{ n: number }>, attempt: number) => void) {
    const attempts = new Map<string, number>();
    const settled = { count: 0 };
    const counting: EventTransport = Object.assign(Object.create(transport) as EventTransport, {
      consume: (spec: Parameters<EventTransport['consume']>[0], handler: Parameters<EventTransport['consume']>[1]) =>
        transport.consume(spec, async (delivery) => {
          try {
            await handler(delivery);
          } finally {
            settled.count++;
          }
        }),
    });
    subscriptions.push(
      await subscribe({
        service,
        schema: consumerSchema,
        db: database.db,
        transport: counting,
        retryDelayMs: 10,
        events: [
          onEvent(definition, async (tx, envelope) => {
            const attempt = (attempts.get(envelope.id) ?? 0) + 1;
            attempts.set(envelope.id, attempt);
            await effectsStore.record(tx, envelope.id, envelope.payload.n);
            beforeEffect?.(envelope, attempt); // throwing here rolls the effect back
          }),
        ],
      }),
    );
    return { attempts, settled };
  }

  it('delivers an event written through the outbox and relay exactly once', async () => {
    const created = itemEvent('created');
    const { settled } = await consumeInto('relayed', created);
    const envelopes = [1, 2, 3].map((n) => createEnvelope(created, item(n), 'corr-1'));
    await database.db.$transaction(async (tx) => {
      for (const envelope of envelopes) await enqueueEvent(tx, producerSchema, envelope);
    });
    const relay = new OutboxRelay({ db: database.db, schema: producerSchema, transport, pollIntervalMs: 50 });
    relay.start();
    try {
      await waitFor(() => settled.count >= 3, 10_000, 'three deliveries');
    } finally {
      await relay.stop();
    }
    const counts = await effectCounts(database.db);
    for (const envelope of envelopes) expect(counts.get(envelope.id)).toBe(1);
    const outbox = await database.db.$queryRawUnsafe<Array<{ status: string; sent_at: Date | null }>>(
      `SELECT status, sent_at FROM "${producerSchema}".outbox_events`,
    );
    expect(outbox.map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
    expect(outbox.every((row) => row.sent_at !== null)).toBe(true);
  });

  it('keeps an unroutable event pending with its error and a back-off', async () => {
    const orphan = itemEvent('orphaned');
    const envelope = createEnvelope(orphan, item(1));
    await enqueueEvent(database.db, producerSchema, envelope);
    const relay = new OutboxRelay({ db: database.db, schema: producerSchema, transport });
    // The back-off counts from the failure, which came after this moment (however long it took).
    const [{ before }] = await database.db.$queryRawUnsafe<Array<{ before: Date }>>('SELECT clock_timestamp() AS before');
    await relay.publishDue();
    const [row] = await database.db.$queryRawUnsafe<Array<{ status: string; attempts: number; last_error: string; due_after_ms: number }>>(
      `SELECT status, attempts, last_error, extract(epoch from next_attempt_at - $2::timestamptz) * 1000 AS due_after_ms
       FROM "${producerSchema}".outbox_events WHERE id = $1::uuid`,
      envelope.id,
      before,
    );
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toContain('UnroutableEventError');
    expect(Number(row.due_after_ms)).toBeGreaterThanOrEqual(outboxDefaults.retryBaseMs);
    await database.db.$executeRawUnsafe(`DELETE FROM "${producerSchema}".outbox_events WHERE id = $1::uuid`, envelope.id);
  });

  it('keeps an event published before its consumer ever ran, once the topology is declared', async () => {
    const early = itemEvent('early');
    await transport.declareTopology([{ consumer: 'late-starter', events: [early.name] }]);
    const envelope = createEnvelope(early, item(4));
    await transport.publish(envelope); // routable although nobody consumes yet
    const { settled } = await consumeInto('late-starter', early);
    await waitFor(() => settled.count === 1, 10_000, 'the early event');
    expect((await effectCounts(database.db)).get(envelope.id)).toBe(1);
  });

  it('allows one subscription per service', async () => {
    const single = itemEvent('single');
    await consumeInto('single', single);
    await expect(transport.consume({ service: 'single', bindings: [single.name] }, async () => {})).rejects.toThrow(/one per service/);
    expect(transport.health().consumers.filter((consumer) => consumer.service === 'single')).toEqual([{ service: 'single', up: true }]);
  });

  it('starts again after its retry settings changed: queue arguments never depend on them', async () => {
    const tuned = itemEvent('tuned');
    await transport.declareTopology([{ consumer: 'tuned', events: [tuned.name] }]); // as any other service does at start
    const first = await transport.consume({ service: 'tuned', bindings: [tuned.name], maxAttempts: 3 }, async () => {});
    await first.stop();
    const second = await transport.consume({ service: 'tuned', bindings: [tuned.name], maxAttempts: 8, retryDelayMs: 50 }, async () => {});
    subscriptions.push(second);
    expect(transport.health().consumers.filter((consumer) => consumer.service === 'tuned')).toEqual([{ service: 'tuned', up: true }]);
    await expect(transport.consume({ service: 'over-limit', bindings: [tuned.name], maxAttempts: 21 }, async () => {})).rejects.toThrow(/maxAttempts must be 1..20/);
  });

  it('redelivers after the handler fails and the effect happens once', async () => {
    const retried = itemEvent('retried');
    const { attempts } = await consumeInto('retrying', retried, (_, attempt) => {
      if (attempt === 1) throw new Error('crash after the effect, before commit');
    });
    const envelope = createEnvelope(retried, item(7));
    await transport.publish(envelope);
    await waitFor(async () => (await effectCounts(database.db)).has(envelope.id), 10_000, 'the retried effect');
    expect(attempts.get(envelope.id)).toBe(2);
    expect((await effectCounts(database.db)).get(envelope.id)).toBe(1);
  });

  it('gives one effect for the same envelope published twice', async () => {
    const duplicated = itemEvent('duplicated');
    const { settled } = await consumeInto('deduplicating', duplicated);
    const envelope = createEnvelope(duplicated, item(3));
    await transport.publish(envelope);
    await transport.publish(envelope);
    // Both copies have been handled (and acked) before we look: a broken dedupe would show two effects.
    await waitFor(() => settled.count === 2, 10_000, 'both deliveries handled');
    expect((await effectCounts(database.db)).get(envelope.id)).toBe(1);
  });

  it('dead-letters after the retry bound, lists it, and replays it', async () => {
    const poisoned = itemEvent('poisoned');
    let healthy = false;
    const { attempts } = await consumeInto('poisoned', poisoned, () => {
      if (!healthy) throw new Error('downstream is broken');
    });
    const envelope = createEnvelope(poisoned, item(9));
    await transport.publish(envelope);
    await waitFor(async () => (await transport.listDeadLetters('poisoned')).length === 1, 10_000, 'a dead letter');
    expect(attempts.get(envelope.id)).toBe(5);
    const [letter] = await transport.listDeadLetters('poisoned');
    expect(letter).toMatchObject({ id: envelope.id, name: poisoned.name, attempts: 5 });
    expect(letter.reason).toContain('downstream is broken');
    expect(JSON.parse(letter.content)).toEqual(envelope);
    expect(await transport.listDeadLetters('poisoned')).toHaveLength(1); // listing does not consume
    expect(await transport.deadLetterDepth('poisoned')).toBe(1);
    expect((await effectCounts(database.db)).has(envelope.id)).toBe(false);

    healthy = true;
    expect(await transport.replayDeadLetters('poisoned', [envelope.id])).toBe(1);
    await waitFor(async () => (await effectCounts(database.db)).get(envelope.id) === 1, 10_000, 'the replayed effect');
    expect(await transport.listDeadLetters('poisoned')).toEqual([]);
    expect(await transport.deadLetterDepth('poisoned')).toBe(0);
  });

  it('shows no dead letters for a service that consumes nothing', async () => {
    expect(await transport.deadLetterDepth('consumes-nothing')).toBe(0);
    expect(await transport.listDeadLetters('consumes-nothing')).toEqual([]);
    expect(await transport.replayDeadLetters('consumes-nothing')).toBe(0);
  });

  it('dead-letters an invalid payload at once, without retries', async () => {
    const validated = itemEvent('validated');
    const { attempts } = await consumeInto('validating', validated);
    const bad = { ...createEnvelope(validated, item(1)), payload: { n: 'not a number' } };
    await transport.publish(bad);
    await waitFor(async () => (await transport.listDeadLetters('validating')).length === 1, 10_000, 'a dead letter');
    const [letter] = await transport.listDeadLetters('validating');
    expect(letter).toMatchObject({ id: bad.id, attempts: 1 });
    expect(letter.reason).toContain('invalid test.item.validated payload');
    expect(attempts.size).toBe(0);
  });

  // How fast a publish reaches its consumer is bench/events.ts's figure (median beside its target);
  // what makes it fast on each bus is a behaviour, checked here.
  // PostgreSQL: each publish wakes its consumer by NOTIFY, never waiting for the back-up poll.
  const wokenByNotify = async () => {
    // A bus whose back-up poll is an hour away: only the notification of each publish can bring it.
    const quiet = await PgTransport.connect({ url: busUrl, pollIntervalMs: 3_600_000 });
    try {
      const pinged = itemEvent('pinged');
      const arrived: number[] = [];
      const subscription = await quiet.consume({ service: 'woken', bindings: [pinged.name] }, async ({ envelope }) => void arrived.push((envelope.payload as { n: number }).n));
      try {
        for (let n = 0; n < 20; n++) {
          await quiet.publish(createEnvelope(pinged, item(n)));
          await waitFor(() => arrived.length === n + 1, 10_000, `message ${n}, woken by its notification`);
        }
        expect(arrived).toEqual(Array.from({ length: 20 }, (_, n) => n));
      } finally {
        await subscription.stop();
      }
    } finally {
      await quiet.close();
    }
  };

  // RabbitMQ: the broker connection sends without Nagle's delay (noDelay), which held each small publish about 40 ms.
  const sentWithoutNagle = async () => {
    // What the transport's sockets to the broker were told, as each was set (setNoDelay() means on).
    const toBroker: boolean[] = [];
    const setNoDelay = net.Socket.prototype.setNoDelay;
    const spy = vi.spyOn(net.Socket.prototype, 'setNoDelay').mockImplementation(function (this: net.Socket, enable?: boolean) {
      if (this.remotePort === 5672) toBroker.push(enable ?? true);
      return setNoDelay.call(this, enable);
    });
    try {
      const second = await RabbitMqTransport.connect({ url: busUrl });
      await second.close();
    } finally {
      spy.mockRestore();
    }
    expect(toBroker.length).toBeGreaterThan(0);
    expect(toBroker.every((enable) => enable)).toBe(true);
  };

  it('hands each publish on at once: woken by NOTIFY on PostgreSQL, sent without delay (noDelay) on RabbitMQ', async () => {
    await (transportUnderTest === pgTransport ? wokenByNotify() : sentWithoutNagle());
  });
});
