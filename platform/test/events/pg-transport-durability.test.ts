import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import { enqueueEvent, onEvent, PgTransport, subscribe } from '@bo/platform/events';
import type { TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { consumerSchema, createEventsDatabase, effectCounts, effectsStore, item, itemEvent, ledger, producerSchema, waitFor } from './harness';

const here = path.dirname(fileURLToPath(import.meta.url));

function startWorker(url: string, name: string, hangAt = -1): ChildProcess {
  // node itself with tsx's loader (not the tsx CLI, which would put a wrapper process between the signal and the worker)
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/bus-worker.ts'), url, name, String(hangAt)], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.resume();
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

// The embedded run on PostgreSQL: nothing is acked before the consumer committed, so a process
// killed mid-way loses nothing and, restarted, has every effect exactly once.
describe('PostgreSQL transport durability', () => {
  let database: TestSqlDatabase;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    database = await createEventsDatabase('events_durable');
  });
  afterAll(async () => {
    for (const child of children) await kill(child);
    await database?.drop();
  });

  it('has every effect exactly once after a SIGKILL mid-way and a restart', { timeout: 120_000 }, async () => {
    const durable = itemEvent('durable');
    const envelopes = Array.from({ length: 200 }, (_, n) => createEnvelope(durable, item(n)));
    await database.db.$transaction(async (tx) => {
      for (const envelope of envelopes) await enqueueEvent(tx, producerSchema, envelope);
    });
    const ids = envelopes.map((envelope) => envelope.id);

    // The first process gets stuck inside the delivery of event 100 (its effect written, not
    // committed), with other deliveries of its batch done: killed there, it is the worst case.
    const first = startWorker(database.url, durable.name, 100);
    children.push(first);
    let settled = -1;
    await waitFor(async () => {
      const size = (await effectCounts(database.db)).size;
      const still = size === settled && size > 0;
      settled = size;
      if (!still) await new Promise((resolve) => setTimeout(resolve, 300));
      return still;
    }, 60_000, 'the first process stuck mid-way');
    await kill(first);
    const afterKill = await ledger(database.db, ids);
    expect(afterKill.lost).toBeGreaterThan(0); // killed mid-way indeed

    const second = startWorker(database.url, durable.name);
    children.push(second);
    await waitFor(async () => (await ledger(database.db, ids)).lost === 0, 60_000, 'every effect');
    await new Promise((resolve) => setTimeout(resolve, 500)); // a wrong redelivery would land meanwhile
    const result = await ledger(database.db, ids);
    console.log(`SIGKILL after ${afterKill.expected - afterKill.lost} of 200 effects, restarted: ${JSON.stringify(result)}`);
    expect(result).toEqual({ expected: 200, lost: 0, doubled: 0 });
    const [{ left }] = await database.db.$queryRawUnsafe<Array<{ left: number }>>(`SELECT count(*)::int AS left FROM bus.messages`);
    expect(left).toBe(0);
    const statuses = await database.db.$queryRawUnsafe<Array<{ status: string; count: number }>>(
      `SELECT status, count(*)::int AS count FROM "${producerSchema}".outbox_events GROUP BY status`,
    );
    expect(statuses).toEqual([{ status: 'sent', count: 200 }]);
    await kill(second);
  });

  it('keeps waking its consumer by NOTIFY after the server dropped the bus connections', { timeout: 60_000 }, async () => {
    const woken = itemEvent('woken');
    // A poll of a minute: only a notification can deliver within seconds.
    const transport = await PgTransport.connect({ url: database.url, pollIntervalMs: 60_000 });
    try {
      await subscribe({
        service: 'woken',
        schema: consumerSchema,
        db: database.db,
        transport,
        events: [onEvent(woken, (tx, envelope) => effectsStore.record(tx, envelope.id, envelope.payload.n))],
      });
      await database.db.$queryRawUnsafe(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bo-event-bus'`,
      );
      await waitFor(() => !transport.health().connected, 5_000, 'the listener seen lost');
      await waitFor(() => transport.health().connected, 10_000, 'the listener back');
      const envelope = createEnvelope(woken, item(1));
      await transport.publish(envelope);
      await waitFor(async () => (await effectCounts(database.db)).get(envelope.id) === 1, 10_000, 'the effect, woken by NOTIFY');
    } finally {
      await transport.close();
    }
  });
});
