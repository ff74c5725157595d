import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope } from '@bo/proto';
import pg from 'pg';
import { LEASE_MARGIN_MS, onEvent, OutsideEffects, outsideEffect, PgTransport, subscribe, type Subscription } from '@bo/platform/events';
import { createPgSqlClient, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { startTcpProxy } from '@bo/platform/testing/tcp-proxy';
import { consumerSchema, createEventsDatabase, effectCounts, effectsStore, item, itemEvent, waitFor } from './harness';

// The two-step pattern: the consumer's transaction records the intent; the call runs after commit.
describe('outside effects', () => {
  let database: TestSqlDatabase;
  let transport: PgTransport;
  const stoppers: Array<{ stop(): Promise<void> }> = [];
  beforeAll(async () => {
    database = await createEventsDatabase('events_outside');
    transport = await PgTransport.connect({ url: database.url, pollIntervalMs: 100 });
  });
  afterAll(async () => {
    for (const stopper of stoppers) await stopper.stop();
    await transport?.close();
    await database?.drop();
  });

  it('executes once per event under duplicates and competing runners, after the commit', async () => {
    const paid = itemEvent('paid');
    const calls: Array<{ key: string; n: number; committed: boolean }> = [];
    const shopUpdate = outsideEffect<{ n: number }>('shop.update', async (payload, { idempotencyKey }) => {
      // The intent's transaction has committed before any outside call: its effect row is visible.
      const [{ count }] = await database.db.$queryRawUnsafe<Array<{ count: number }>>(
        `SELECT count(*)::int AS count FROM "${consumerSchema}".effects WHERE n = $1`,
        payload.n,
      );
      calls.push({ key: idempotencyKey, n: payload.n, committed: count === 1 });
    });
    const runners = [1, 2].map(() => new OutsideEffects({ db: database.db, schema: consumerSchema, effects: [shopUpdate], pollIntervalMs: 20 }));
    for (const runner of runners) {
      runner.start();
      stoppers.push(runner);
    }
    let handled = 0;
    const subscription: Subscription = await subscribe({
      service: 'shop-sync',
      schema: consumerSchema,
      db: database.db,
      transport,
      afterCommit: () => runners[0].nudge(),
      events: [
        onEvent(paid, async (tx, envelope) => {
          await effectsStore.record(tx, envelope.id, envelope.payload.n);
          await runners[0].record(tx, envelope.id, shopUpdate, { n: envelope.payload.n });
        }),
      ],
    });
    stoppers.push(subscription);
    const envelopes = [1, 2, 3].map((n) => createEnvelope(paid, item(n)));
    for (const envelope of envelopes) for (let copy = 0; copy < 3; copy++) await transport.publish(envelope);
    const [{ id: first }] = envelopes;
    // A duplicate recorded straight in another transaction, once the consumer recorded the first, is refused by the key as well.
    await waitFor(async () => {
      const [{ recorded }] = await database.db.$queryRawUnsafe<Array<{ recorded: number }>>(
        `SELECT count(*)::int AS recorded FROM "${consumerSchema}".outside_effects WHERE idempotency_key = $1`,
        `${first}:shop.update`,
      );
      return recorded === 1;
    });
    expect(await database.db.$transaction((tx) => runners[1].record(tx, first, shopUpdate, { n: 1 }))).toBe(false);
    await waitFor(async () => {
      const [{ done }] = await database.db.$queryRawUnsafe<Array<{ done: number }>>(
        `SELECT count(*)::int AS done FROM "${consumerSchema}".outside_effects WHERE status = 'done'`,
      );
      handled = done;
      return done === 3 && (await transport.health()).connected;
    }, 10_000, 'three effects done');
    await new Promise((resolve) => setTimeout(resolve, 200)); // both runners polled again meanwhile
    expect(handled).toBe(3);
    expect(calls.map((call) => call.key).sort()).toEqual(envelopes.map((envelope) => `${envelope.id}:shop.update`).sort());
    expect(calls.every((call) => call.committed)).toBe(true);
  });

  it('ends in failed after maxAttempts, is listed, and runs again when retried', async () => {
    let healthy = false;
    let attempts = 0;
    const chat = outsideEffect<{ text: string }>('chat.message', async () => {
      attempts++;
      if (!healthy) throw new Error('chat service down');
    });
    const runner = new OutsideEffects({ db: database.db, schema: consumerSchema, effects: [chat], maxAttempts: 3, retryBaseMs: 10, retryMaxMs: 20, pollIntervalMs: 10 });
    runner.start();
    stoppers.push(runner);
    const eventId = createEnvelope(itemEvent('chatted'), item(1)).id;
    await database.db.$transaction((tx) => runner.record(tx, eventId, chat, { text: 'hello' }));
    runner.nudge();
    await waitFor(async () => (await runner.listFailed()).length === 1, 10_000, 'a failed effect');
    expect(attempts).toBe(3);
    const [failed] = await runner.listFailed();
    expect(failed).toMatchObject({ idempotencyKey: `${eventId}:chat.message`, kind: 'chat.message', attempts: 3, payload: { text: 'hello' } });
    expect(failed.lastError).toContain('chat service down');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(attempts).toBe(3); // failed is terminal until an operator retries

    healthy = true;
    expect(await runner.retryFailed([failed.idempotencyKey])).toBe(1);
    await waitFor(() => attempts === 4, 10_000, 'the retried execution');
    await waitFor(async () => (await runner.listFailed()).length === 0, 10_000, 'no failed effect');
    // The execution's outcome is written just after it returns: wait for it rather than read once.
    const status = async () =>
      (await database.db.$queryRawUnsafe<Array<{ status: string }>>(`SELECT status FROM "${consumerSchema}".outside_effects WHERE idempotency_key = $1`, failed.idempotencyKey))[0].status;
    await waitFor(async () => (await status()) === 'done', 10_000, 'the effect done');
  });

  const effectRow = async (key: string) =>
    (await database.db.$queryRawUnsafe<Array<{ status: string; attempts: number; last_error: string | null; lease_ms: number }>>(
      `SELECT status, attempts, last_error, (extract(epoch FROM next_attempt_at - updated_at) * 1000)::int AS lease_ms FROM "${consumerSchema}".outside_effects WHERE idempotency_key = $1`,
      key,
    ))[0];

  it('aborts an execution at its deadline, charges it, and claims each kind for longer than its deadline', async () => {
    let aborted: unknown;
    let claimed: Awaited<ReturnType<typeof effectRow>> | undefined;
    const eventId = createEnvelope(itemEvent('hung'), item(1)).id;
    const hung = outsideEffect<{ n: number }>('hung.call', async (_payload, { signal }) => {
      claimed ??= await effectRow(`${eventId}:hung.call`);
      // An outside call that never answers on its own: only the signal ends it.
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject((aborted = signal.reason))));
    }, { deadlineMs: 300 });
    const slow = outsideEffect<{ n: number }>('slow.call', async () => {}, { deadlineMs: 120_000 });
    const runner = new OutsideEffects({ db: database.db, schema: consumerSchema, effects: [hung, slow], maxAttempts: 5, retryBaseMs: 60_000, pollIntervalMs: 50 });
    expect(runner.leaseOf('hung.call')).toBe(60_000); // the lease setting, when longer
    expect(runner.leaseOf('slow.call')).toBe(120_000 + LEASE_MARGIN_MS);
    runner.start();
    stoppers.push(runner);
    await database.db.$transaction((tx) => runner.record(tx, eventId, hung, { n: 1 }));
    runner.nudge();
    await waitFor(async () => (await effectRow(`${eventId}:hung.call`)).last_error !== null, 10_000, 'the abandoned execution recorded');
    expect(claimed?.lease_ms).toBeGreaterThanOrEqual(59_000);
    expect(String((aborted as Error).message)).toContain('deadline of 300 ms');
    expect(await effectRow(`${eventId}:hung.call`)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringContaining('EffectDeadlineError') });
  });

  it('does not charge a failure of a dependency that is down, and retries it within seconds', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    pool.on('error', () => {});
    const refused = await pool.query('SELECT 1').catch((error: unknown) => error);
    await pool.end();
    let runs = 0;
    const lookup = outsideEffect<{ n: number }>('needs.database', async () => {
      if (++runs <= 3) throw refused;
    });
    const runner = new OutsideEffects({ db: database.db, schema: consumerSchema, effects: [lookup], maxAttempts: 2, retryBaseMs: 50, pollIntervalMs: 20 });
    runner.start();
    stoppers.push(runner);
    const eventId = createEnvelope(itemEvent('looked-up'), item(1)).id;
    await database.db.$transaction((tx) => runner.record(tx, eventId, lookup, { n: 1 }));
    runner.nudge();
    await waitFor(async () => (await effectRow(`${eventId}:needs.database`)).status === 'done', 10_000, 'the effect done');
    // Three refusals, yet one charged attempt: the one that succeeded (maxAttempts 2 would have failed it otherwise).
    expect(runs).toBe(4);
    expect(await effectRow(`${eventId}:needs.database`)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('records a call that was made once the database is back, however long it was away, and never makes it again meanwhile', { timeout: 30_000 }, async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    const url = new URL(database.url);
    url.port = String(proxy.port);
    const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
    pool.on('error', () => {});
    let calls = 0;
    const send = outsideEffect<{ n: number }, string>(
      'chat.send',
      async (_payload, { idempotencyKey }) => {
        calls++;
        // The outside system took the call; right then this service's database goes away.
        proxy.refuse();
        proxy.cutAll();
        return idempotencyKey.split(':')[0];
      },
      { deadlineMs: 500, recordDone: (tx, payload, eventId) => effectsStore.record(tx, eventId, payload.n) },
    );
    const runner = new OutsideEffects({ db: createPgSqlClient(pool), schema: consumerSchema, effects: [send], leaseMs: 1_000, pollIntervalMs: 50 });
    const eventId = createEnvelope(itemEvent('sent'), item(1)).id;
    await database.db.$transaction((tx) => runner.record(tx, eventId, send, { n: 7 }));
    runner.start();
    try {
      await waitFor(() => calls === 1, 5_000, 'the call');
      // Longer than the effect's whole claim (its deadline plus the margin): it has run out meanwhile.
      await new Promise((resolve) => setTimeout(resolve, LEASE_MARGIN_MS + 1_500));
      proxy.resume();
      await waitFor(async () => (await effectRow(`${eventId}:chat.send`)).status === 'done', 10_000, 'the outcome recorded');
      await new Promise((resolve) => setTimeout(resolve, 300)); // a second call would be under way by now
      expect(calls).toBe(1);
      expect((await effectCounts(database.db)).get(eventId)).toBe(1);
    } finally {
      await runner.stop();
      await pool.end();
      await proxy.close();
    }
  });

  it('keeps writing the outcome of a call that was made, whatever the write fails with, and never makes the call again', { timeout: 20_000 }, async () => {
    let calls = 0;
    let refusals = 2;
    const send = outsideEffect<{ n: number }, string>(
      'chat.send-once',
      async (_payload, { idempotencyKey }) => {
        calls++;
        return idempotencyKey.split(':')[0];
      },
      {
        recordDone: async (tx, payload, eventId) => {
          // A connection cut mid-transaction is not always reported as one: an error the code cannot place.
          if (refusals-- > 0) throw new Error('Transaction API error: Transaction already closed');
          await effectsStore.record(tx, eventId, payload.n);
        },
      },
    );
    const runner = new OutsideEffects({ db: database.db, schema: consumerSchema, effects: [send], leaseMs: 200, pollIntervalMs: 20 });
    const eventId = createEnvelope(itemEvent('sent-once'), item(1)).id;
    await database.db.$transaction((tx) => runner.record(tx, eventId, send, { n: 8 }));
    runner.start();
    try {
      await waitFor(async () => (await effectRow(`${eventId}:chat.send-once`)).status === 'done', 10_000, 'the outcome recorded');
      expect(calls).toBe(1);
      expect((await effectCounts(database.db)).get(eventId)).toBe(1);
    } finally {
      await runner.stop();
    }
  });
});
