import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { PgTransport, RabbitMqTransport, type Delivery, type EventTransport, type Subscription } from '@bo/platform/events';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';
import { item, itemEvent, waitFor } from './harness';

type Logged = { message: string; detail?: Record<string, unknown> };
type Opened = { transport: EventTransport; logged: Logged[]; close(): Promise<void> };

const transports: { name: string; open(databaseUrl: string): Promise<Opened> }[] = [
  {
    name: 'postgresql',
    async open(url) {
      const logged: Logged[] = [];
      const transport = await PgTransport.connect({ url, pollIntervalMs: 100, log: (message, detail) => logged.push({ message, detail }) });
      return { transport, logged, close: () => transport.close() };
    },
  },
  {
    name: 'rabbitmq',
    async open() {
      const logged: Logged[] = [];
      const vhost = await createTestVhost('events_transient');
      const transport = await RabbitMqTransport.connect({ url: vhost.url, log: (message, detail) => logged.push({ message, detail }) });
      return {
        transport,
        logged,
        close: async () => {
          await transport.close();
          await vhost.delete();
        },
      };
    },
  },
];

// Issue 18 §4: a dependency that is down for a while (PostgreSQL refusing) is waited out in place;
// only the handler's own errors count towards the dead letters, and parking one is logged.
describe.each(transports)('transient failures over $name', (under) => {
  let database: TestDatabase;
  let opened: Opened;
  let refused: unknown;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('events_transient');
    opened = await under.open(database.url);
    // A real "database away" failure, as a handler's query gets it: a connection refused.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    pool.on('error', () => {});
    refused = await pool.query('SELECT 1').catch((error: unknown) => error);
    await pool.end();
  });
  afterAll(async () => {
    for (const subscription of subscriptions) await subscription.stop();
    await opened?.close();
    await database?.drop();
  });

  const consume = async (service: string, bindings: string[], options: { maxAttempts?: number; transientRetryMs?: number }, handler: (delivery: Delivery) => Promise<void>) => {
    const subscription = await opened.transport.consume({ service, bindings, retryDelayMs: 10, ...options }, handler);
    subscriptions.push(subscription);
    return subscription;
  };

  it('retries a dependency-down failure in place, never counting it, past maxAttempts', async () => {
    const outage = itemEvent('outage');
    const seen: number[] = [];
    let failures = 0;
    await consume('outage', [outage.name], { maxAttempts: 3 }, async ({ attempt }) => {
      seen.push(attempt);
      if (failures++ < 8) throw refused;
    });
    await opened.transport.publish(createEnvelope(outage, item(1)));
    await waitFor(() => seen.length === 9, 15_000, 'the handler to succeed on its ninth run');
    // Held the whole time: the transport never counted a redelivery.
    expect(seen.every((attempt) => attempt === 1)).toBe(true);
    expect(await opened.transport.deadLetterDepth('outage')).toBe(0);
  });

  it('counts a failure that outlasts transientRetryMs once, and logs the parking with event, id, service, attempts and reason', async () => {
    const stuck = itemEvent('stuck');
    const seen: number[] = [];
    await consume('stuck', [stuck.name], { maxAttempts: 2, transientRetryMs: 300 }, async ({ attempt }) => {
      seen.push(attempt);
      throw refused;
    });
    const envelope = createEnvelope(stuck, item(2));
    await opened.transport.publish(envelope);
    await waitFor(async () => (await opened.transport.deadLetterDepth('stuck')) === 1, 15_000, 'the dead letter');
    expect(new Set(seen)).toEqual(new Set([1, 2])); // two handed-out attempts, each retried in place meanwhile
    expect(seen.length).toBeGreaterThan(2);
    const [letter] = await opened.transport.listDeadLetters('stuck');
    expect(letter).toMatchObject({ id: envelope.id, attempts: 2 });
    const parked = opened.logged.find((entry) => entry.message === 'event parked in dead letters' && entry.detail?.id === envelope.id);
    expect(parked?.detail).toMatchObject({ event: stuck.name, id: envelope.id, service: 'stuck', attempts: 2 });
    expect(String(parked?.detail?.reason)).toContain('ECONNREFUSED');
  });

  it('lists the dead letters of a service that consumes nothing as none, and logs nothing for it', async () => {
    const before = opened.logged.length;
    const listed = async () => [await opened.transport.deadLetterDepth('consumes-nothing'), await opened.transport.listDeadLetters('consumes-nothing'), await opened.transport.replayDeadLetters('consumes-nothing')];
    // Before the topology is known the broker is asked, and its 404 is the answer, not a channel error.
    expect(await listed()).toEqual([0, [], 0]);
    // Once it is known, a service without a queue in it has no dead letters, and the broker is not asked.
    await opened.transport.declareTopology([{ consumer: 'declared-consumer', events: [itemEvent('declared').name] }]);
    expect(await listed()).toEqual([0, [], 0]);
    expect(await opened.transport.deadLetterDepth('declared-consumer')).toBe(0);
    expect(opened.logged.slice(before)).toEqual([]);
  });

  it('stops at once while a delivery waits for its dependency, leaving the message for the next consumer', async () => {
    const held = itemEvent('held');
    let runs = 0;
    const first = await consume('held', [held.name], { transientRetryMs: 60_000 }, async () => {
      runs++;
      throw refused;
    });
    const envelope = createEnvelope(held, item(3));
    await opened.transport.publish(envelope);
    await waitFor(() => runs >= 2, 10_000, 'the delivery retried in place');
    // The dependency stays down: stop must end the in-place retries, not wait them out (60 s). Had
    // it waited, the handler would go on being tried meanwhile; three more tries settle it.
    const runsAtStop = runs;
    let stopped = false;
    const stopping = first.stop().then(() => {
      stopped = true;
      return 'stopped' as const;
    });
    const retrying = (async () => {
      while (!stopped && runs < runsAtStop + 3) await new Promise((resolve) => setTimeout(resolve, 20));
      return 'still retrying' as const;
    })();
    const outcome = await Promise.race([stopping, retrying]);
    expect(outcome).toBe('stopped');
    expect(runs).toBeLessThanOrEqual(runsAtStop + 1); // at most the try under way when it was asked

    const handled: string[] = [];
    await consume('held', [held.name], {}, async ({ envelope: delivered }) => void handled.push(delivered.id));
    await waitFor(() => handled.length === 1, 15_000, 'the message delivered to the next consumer');
    expect(handled).toEqual([envelope.id]);
    expect(await opened.transport.deadLetterDepth('held')).toBe(0);
  });
});
