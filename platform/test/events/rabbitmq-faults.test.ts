import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { enqueueEvent, onEvent, OutboxRelay, RabbitMqTransport, subscribe, type TransactionalSqlClient } from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import { consumerSchema, createEventsDatabase, effectCounts, item, itemEvent, producerSchema, recordEffect, sleep, waitFor } from './harness';

// The broker connection goes through a TCP proxy the test cuts; the process never restarts.
describe('rabbitmq transport under connection faults', () => {
  let database: TestSqlDatabase;
  let vhost: TestVhost;
  let proxy: TcpProxy;
  let transport: RabbitMqTransport;
  let connects: number;

  beforeAll(async () => {
    database = await createEventsDatabase('events_faults');
    vhost = await createTestVhost('events-faults');
  });
  afterAll(async () => {
    await vhost?.delete();
    await database?.drop();
  });
  beforeEach(async () => {
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5672 });
    connects = 0;
    transport = await RabbitMqTransport.connect({
      url: vhost.urlVia(proxy.port),
      publishTimeoutMs: 2_000,
      reconnectMaxDelayMs: 200,
      log: (message) => {
        if (message === 'rabbitmq connected') connects++;
      },
    });
  });
  afterEach(async () => {
    await transport.close();
    await proxy.close();
  });

  it('loses no event when the connection is cut mid-flow and restored', async () => {
    const flowed = itemEvent('flowed');
    await subscribe({
      service: 'flow',
      schema: consumerSchema,
      db: database.db,
      transport,
      events: [onEvent(flowed, (tx, envelope) => recordEffect(tx, envelope.id, envelope.payload.n))],
    });
    const relay = new OutboxRelay({ db: database.db, schema: producerSchema, transport, pollIntervalMs: 100, retryBaseMs: 50, retryMaxMs: 300 });
    relay.start();
    const ids: string[] = [];
    try {
      for (let n = 0; n < 40; n++) {
        if (n === 10) {
          proxy.refuse();
          proxy.cutAll();
        }
        if (n === 30) proxy.resume();
        const envelope = createEnvelope(flowed, item(n));
        ids.push(envelope.id);
        await database.db.$transaction((tx) => enqueueEvent(tx, producerSchema, envelope));
        relay.nudge();
        await sleep(40);
      }
      await waitFor(async () => (await effectCounts(database.db)).size === ids.length, 20_000, 'every effect');
      await sleep(300);
    } finally {
      await relay.stop();
    }
    expect(connects).toBeGreaterThanOrEqual(2);
    const counts = await effectCounts(database.db);
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
    const pending = await database.db.$queryRawUnsafe<unknown[]>(`SELECT id FROM "${producerSchema}".outbox_events WHERE status <> 'sent'`);
    expect(pending).toEqual([]);
  });

  it('has one effect when the connection dies after commit, before the ack', async () => {
    const acked = itemEvent('acked');
    let transactions = 0;
    // The consumer's database: after the first commit the connection dies, so the ack never leaves.
    const db: TransactionalSqlClient = {
      ...database.db,
      $transaction: async (fn) => {
        const result = await database.db.$transaction(fn);
        if (++transactions === 1) {
          proxy.cutAll();
          await sleep(50);
        }
        return result;
      },
    };
    await subscribe({
      service: 'ack-lost',
      schema: consumerSchema,
      db,
      transport,
      events: [onEvent(acked, (tx, envelope) => recordEffect(tx, envelope.id, envelope.payload.n))],
    });
    const envelope = createEnvelope(acked, item(1));
    await transport.publish(envelope);
    await waitFor(() => transactions >= 2, 10_000, 'the redelivery');
    await sleep(200);
    expect(connects).toBe(2);
    expect(transactions).toBe(2);
    expect((await effectCounts(database.db)).get(envelope.id)).toBe(1);
  });

  it('fails a publish when no connection comes back within the timeout', async () => {
    proxy.refuse();
    proxy.cutAll();
    await sleep(200); // the transport has noticed; the publish now waits for a connection that never comes
    const started = Date.now();
    await expect(transport.publish(createEnvelope(itemEvent("stranded"), item(1)))).rejects.toThrow(/no rabbitmq connection within 2000 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
