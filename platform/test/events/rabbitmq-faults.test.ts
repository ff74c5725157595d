import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { createOutbox, enqueueEvent, eventsReadinessCheck, onEvent, OutboxRelay, RabbitMqTransport, subscribe, type TransactionalSqlClient } from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import { consumerSchema, createEventsDatabase, effectCounts, effectsStore, item, itemEvent, ledger, producerSchema, recordEffect, sleep, waitFor } from './harness';

const run = promisify(execFile);

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
    // The transport has noticed; the publish now waits for a connection that never comes.
    await waitFor(() => !transport.health().connected, 10_000, 'the cut noticed');
    const started = performance.now();
    await expect(transport.publish(createEnvelope(itemEvent("stranded"), item(1)))).rejects.toThrow(/no rabbitmq connection within 2000 ms/);
    // It waited its publishTimeoutMs for a connection before failing (not at once); that it gave up at
    // all while none came is the rejection above (the broker stays refused throughout).
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000 - 5);
  });

  it('resumes by itself a consumer whose queue the broker deleted, and /ready says so meanwhile', async () => {
    const resumed = itemEvent('resumed');
    await subscribe({
      service: 'resumer',
      schema: consumerSchema,
      db: database.db,
      transport,
      events: [onEvent(resumed, (tx, envelope) => effectsStore.record(tx, envelope.id, envelope.payload.n))],
    });
    const ready = eventsReadinessCheck(transport);
    await ready.check();
    const admin = await amqp.connect(vhost.url);
    try {
      const channel = await admin.createChannel();
      await channel.deleteQueue('resumer'); // the broker cancels the consumer
      await waitFor(() => !transport.health().consumers[0].up, 5_000, 'the consumer seen down');
      await expect(ready.check()).rejects.toThrow('event consumers down: resumer');
      const lostAt = Date.now();
      await waitFor(() => transport.health().consumers[0].up, 30_000, 'the consumer back');
      console.log(`consumer resumed ${Date.now() - lostAt} ms after its queue was deleted`);
      await ready.check();
      expect((await channel.checkQueue('resumer')).consumerCount).toBe(1);
    } finally {
      await admin.close();
    }
    const envelope = createEnvelope(resumed, item(1));
    await transport.publish(envelope);
    await waitFor(async () => (await effectCounts(database.db)).get(envelope.id) === 1, 10_000, 'the effect after resuming');
  });

  it('resumes its consumer after an operator closes the connection (rabbitmqctl close_connection)', async () => {
    const closed = itemEvent('closed');
    await subscribe({
      service: 'closed-by-operator',
      schema: consumerSchema,
      db: database.db,
      transport,
      events: [onEvent(closed, (tx, envelope) => effectsStore.record(tx, envelope.id, envelope.payload.n))],
    });
    // list_connections takes no vhost filter (a -p is ignored): every test's connections are listed,
    // so only this vhost's are closed, never those of suites running beside this one.
    const { stdout } = await run('rabbitmqctl', ['list_connections', '-q', '--no-table-headers', 'pid', 'vhost']);
    const pids = stdout
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([pid, host]) => pid && host === vhost.name)
      .map(([pid]) => pid);
    expect(pids.length).toBeGreaterThan(0);
    // Watched from before the first close: the transport may reconnect before a later close
    // command returns (each rabbitmqctl call takes a second or more on a busy machine).
    let seenClosed = false;
    const watch = setInterval(() => (seenClosed ||= !transport.health().connected), 2);
    try {
      for (const pid of pids) await run('rabbitmqctl', ['close_connection', pid, 'closed by the fault test']);
      await waitFor(() => seenClosed, 10_000, 'the connection seen closed');
    } finally {
      clearInterval(watch);
    }
    await waitFor(() => transport.health().connected && transport.health().consumers.every((consumer) => consumer.up), 30_000, 'the consumer back');
    const envelope = createEnvelope(closed, item(1));
    await transport.publish(envelope);
    await waitFor(async () => (await effectCounts(database.db)).get(envelope.id) === 1, 10_000, 'the effect after reconnecting');
  });

  it('pauses the relay while the broker is cut for 30 s during 200 events: lost 0, doubled 0, every row due the moment it is back', { timeout: 120_000 }, async () => {
    const cut = itemEvent('cut');
    await subscribe({
      service: 'ledger',
      schema: consumerSchema,
      db: database.db,
      transport,
      events: [onEvent(cut, (tx, envelope) => effectsStore.record(tx, envelope.id, envelope.payload.n))],
    });
    const relay = new OutboxRelay({ db: database.db, schema: producerSchema, transport }); // default settings
    const outbox = createOutbox({ db: database.db, schema: producerSchema, relay });
    relay.start();
    const ids: string[] = [];
    let resumedAt: number;
    try {
      const committing = (async () => {
        for (let n = 0; n < 200; n++) {
          const envelope = await outbox.commit(async (_tx, emit) => emit(cut, item(n)));
          ids.push(envelope.id);
          await sleep(100); // 200 events over ~20 s
        }
      })();
      await sleep(3_000);
      proxy.refuse();
      proxy.cutAll();
      await sleep(30_000);
      expect(relay.paused).toBe(true);
      // Drained as soon as the broker is back: the cut charged no row a back-off and left no row
      // leased for later, so every unsent one is due now (not after a retry's wait).
      const [{ later }] = await database.db.$queryRawUnsafe<Array<{ later: number }>>(
        `SELECT count(*)::int AS later FROM "${producerSchema}".outbox_events WHERE status = 'pending' AND next_attempt_at > now()`,
      );
      expect(later).toBe(0);
      proxy.resume();
      resumedAt = Date.now();
      await committing;
      await waitFor(async () => (await ledger(database.db, ids)).lost === 0, 60_000, 'every effect');
    } finally {
      await relay.stop();
    }
    const drainedMs = Date.now() - resumedAt;
    const result = await ledger(database.db, ids);
    const [{ max_attempts }] = await database.db.$queryRawUnsafe<Array<{ max_attempts: number }>>(
      `SELECT max(attempts)::int AS max_attempts FROM "${producerSchema}".outbox_events WHERE id = ANY(string_to_array($1, ',')::uuid[])`,
      ids.join(','),
    );
    console.log(`broker cut 30 s during 200 events: ${JSON.stringify({ ...result, drainedMsAfterReconnect: drainedMs, maxAttemptsCharged: max_attempts })}`);
    expect(result).toEqual({ expected: 200, lost: 0, doubled: 0 });
    expect(max_attempts).toBeLessThanOrEqual(1); // at most the publish in flight at the cut
  });
});
