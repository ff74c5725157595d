import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { runProgressEventOf, type EventEnvelope, type RunProgress, type ServiceName } from '@bo/proto';
import { createLogger, createServiceApp } from '@bo/platform';
import { signedBy, testVerifier } from '@bo/platform/testing/identity';
import { createOutbox, OutboxRelay, type EventTransport, type TransactionalSqlClient } from '@bo/platform/events';
import { registerRunRoutes, runKind, Runs, schedule, Scheduler, type RunKind } from '@bo/platform/runs';
import { createPgSqlClient, createPlatformTables, createTestSqlDatabase, type TestSqlDatabase } from '@bo/platform/testing/pg-sql';
import { pgTransport, rabbitMqTransport, sleep, waitFor } from '../events/harness';

const SERVICE = 'shop-sync';
const logger = createLogger('runs-test', 'silent');

describe.each([pgTransport, rabbitMqTransport])('background runs over $name', (transportUnderTest) => {
  let database: TestSqlDatabase & { url: string };
  let transport: EventTransport;
  let closeTransport: () => Promise<void>;
  const schema = `runs_${transportUnderTest.name}`;
  const stops: Array<() => Promise<void>> = [];

  /** One process of the service: its own pool, relay and runs (and scheduler when asked). */
  function process_(kinds: RunKind<never>[], { service = SERVICE, ...options }: { service?: ServiceName; leaseMs?: number; heartbeatMs?: number; cancelGraceMs?: number } = {}) {
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on('error', () => {});
    const db: TransactionalSqlClient = createPgSqlClient(pool);
    // As defineService sets it: the service's progress is sent whether or not a queue is bound to it.
    const relay = new OutboxRelay({ db, schema, transport, pollIntervalMs: 50, mayGoUnheard: (name) => name === runProgressEventOf(service).name });
    const outbox = createOutbox({ db, schema, relay });
    const runs = new Runs({ service, schema, db, outbox, logger, pollMs: 100, ...options });
    runs.register(kinds);
    const scheduler = new Scheduler({ service: SERVICE, schema, db, runs, logger });
    relay.start();
    runs.start();
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await scheduler.stop();
      await runs.stop();
      await relay.stop();
      await pool.end();
    };
    stops.push(stop);
    /** A kill: its connections go at once and nothing it holds is handed over. */
    const kill = async () => {
      stopped = true;
      await scheduler.stop();
      await relay.stop();
      pool.end().catch(() => undefined);
      for (const client of (pool as unknown as { _clients: pg.PoolClient[] })._clients) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      void runs.stop();
    };
    return { db, runs, scheduler, stop, kill };
  }

  beforeAll(async () => {
    database = (await createTestSqlDatabase(`runs_${transportUnderTest.name}`)) as TestSqlDatabase & { url: string };
    await createPlatformTables(database.db, schema);
    await database.db.$executeRawUnsafe(`CREATE TABLE "${schema}".work_done (run_id text NOT NULL, step text NOT NULL)`);
    ({ transport, close: closeTransport } = await transportUnderTest.open(database.url));
  });
  afterAll(async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    await closeTransport?.();
    await database?.drop();
  });

  const doneSteps = async (runId: string) =>
    (await database.db.$queryRawUnsafe<{ step: string }[]>(`SELECT step FROM "${schema}".work_done WHERE run_id = $1 ORDER BY step`, runId)).map((row) => row.step);
  const recordStep = (runId: string, step: string) => database.db.$executeRawUnsafe(`INSERT INTO "${schema}".work_done (run_id, step) VALUES ($1, $2)`, runId, step);

  it('runs to completion with progress on the bus, each change a higher version, the last one completed', async () => {
    const events: EventEnvelope<RunProgress>[] = [];
    const consumer = await transport.consume({ service: `progress-watch-${transportUnderTest.name}`, bindings: [runProgressEventOf(SERVICE).name] }, async ({ envelope }) => {
      events.push(envelope as EventEnvelope<RunProgress>);
    });
    const count = runKind<{ items: number }>('count', async (run) => {
      run.progress({ current: 0, total: run.input.items });
      for (let item = 1; item <= run.input.items; item++) {
        await run.step(`item-${item}`, async () => {
          await recordStep(run.id, `item-${item}`);
          return item;
        });
        run.progress({ current: item, counters: { counted: item } });
      }
      return { counted: run.input.items };
    });
    const one = process_([count]);
    const { run } = await one.runs.begin(count, { items: 5 }, { startedBy: 'admin:owner' });
    expect(run.status).toBe('pending');
    const done = await one.runs.waitFor(run.id.split('.')[1], 10_000);
    expect(done).toMatchObject({ status: 'completed', progress: { current: 5, total: 5, counters: { counted: 5 } }, result: { counted: 5 }, startedBy: 'admin:owner', attempts: 1 });
    expect((await one.runs.get(run.id.split('.')[1])).steps.map((step) => step.name)).toEqual(['item-1', 'item-2', 'item-3', 'item-4', 'item-5']);
    await waitFor(() => events.some((event) => event.payload.runId === run.id && event.payload.status === 'completed'), 10_000, 'the completed event');
    const mine = events.filter((event) => event.payload.runId === run.id).map((event) => event.payload);
    expect(mine[0].status).toBe('pending');
    expect(mine.map((event) => event.status)).toContain('in_progress');
    expect(new Set(mine.map((event) => event.version)).size).toBe(mine.length);
    expect(Math.max(...mine.map((event) => event.version))).toBe(done.version);
    await consumer.stop();
    await one.stop();
  });

  it('publishes progress that nobody listens to as sent, leaving none of it waiting in the outbox', async () => {
    // Nothing in this suite binds pricing's progress (the first test's watcher hears shop-sync's).
    const quiet = runKind('quiet', async (run) => {
      run.progress({ current: 1, total: 1 });
    });
    const one = process_([quiet], { service: 'pricing' });
    const { run } = await one.runs.begin(quiet, {}, { startedBy: 'system' });
    expect(await one.runs.waitFor(run.id.split('.')[1], 10_000)).toMatchObject({ status: 'completed' });
    const progressRows = () =>
      database.db.$queryRawUnsafe<{ status: string; attempts: number }[]>(`SELECT status, attempts FROM "${schema}".outbox_events WHERE name = 'pricing.run.progress' AND payload->>'runId' = $1`, run.id);
    await waitFor(async () => {
      const rows = await progressRows();
      return rows.length >= 2 && rows.every((row) => row.status === 'sent');
    }, 10_000, 'every progress event sent');
    expect((await progressRows()).every((row) => row.attempts === 0)).toBe(true);
    await one.stop();
  });

  it('a run whose process was killed is taken up by another after its lease, from its last completed step', async () => {
    let hang = true;
    const steps = runKind('three-steps', async (run) => {
      for (const name of ['a', 'b', 'c']) {
        await run.step(name, async () => {
          await recordStep(run.id, name);
          // The first process dies in step c.
          if (name === 'c' && hang) await new Promise(() => undefined);
        });
      }
    });
    const first = process_([steps], { leaseMs: 1_000, heartbeatMs: 200 });
    const { run } = await first.runs.begin(steps, {}, { startedBy: 'system' });
    const id = run.id.split('.')[1];
    await waitFor(async () => (await doneSteps(run.id)).includes('c'), 10_000, 'step c to start');
    await first.kill();
    hang = false;
    const second = process_([steps], { leaseMs: 1_000, heartbeatMs: 200 });
    const done = await second.runs.waitFor(id, 15_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    // a and b were done once; c, cut off mid-way, is done again (a step is at least once: make it idempotent).
    expect(await doneSteps(run.id)).toEqual(['a', 'b', 'c', 'c']);
    await second.stop();
  });

  it('cancel stops a running run at its next step within 5 s; retry resumes a failed run from its last completed step', async () => {
    // From its third step on, each step's work waits until the run is stopped: only the cancel,
    // seen by the runner's heartbeat, can end it (no step ends by itself).
    let stepsStarted = 0;
    const slow = runKind('slow', async (run) => {
      for (let step = 1; step <= 100; step++) {
        await run.step(`s${step}`, async () => {
          stepsStarted++;
          if (step >= 3 && !run.signal.aborted) await new Promise((resolve) => run.signal.addEventListener('abort', resolve, { once: true }));
        });
      }
    });
    let failOnce = true;
    const flaky = runKind('flaky', async (run) => {
      for (const name of ['x', 'y', 'z']) {
        await run.step(name, async () => {
          if (name === 'y' && failOnce) {
            failOnce = false;
            throw new Error('The shop answered 500');
          }
          await recordStep(run.id, name);
        });
      }
    });
    const one = process_([slow, flaky], { heartbeatMs: 1_000 });
    const { run } = await one.runs.begin(slow, {}, { startedBy: 'admin:owner' });
    const id = run.id.split('.')[1];
    await waitFor(async () => (await one.runs.peek(id))?.status === 'in_progress' && stepsStarted === 3, 10_000, 'the run in its third step');
    // Asked through another process, as the admin API may be: the runner sees it by its heartbeat
    // (every heartbeatMs, so within the 5 s promised) and stops the run at its next step.
    const other = process_([]);
    expect((await other.runs.cancel(id)).cancelRequested).toBe(true);
    await waitFor(async () => (await one.runs.peek(id))?.status === 'cancelled', 20_000, 'the run cancelled');
    const cancelled = await one.runs.get(id);
    // Its code stopped when told (not ended for being stuck), and no step began after the one under way.
    expect(cancelled.lastError).toBeNull();
    expect(stepsStarted).toBe(3);
    expect(cancelled.steps.map((step) => step.name)).toEqual(['s1', 's2', 's3']);
    await expect(other.runs.cancel(id)).rejects.toThrow(/only a pending or running run/);

    const flakyRun = (await one.runs.begin(flaky, {}, { startedBy: 'admin:owner' })).run;
    const flakyId = flakyRun.id.split('.')[1];
    expect(await one.runs.waitFor(flakyId, 10_000)).toMatchObject({ status: 'failed', lastError: 'The shop answered 500' });
    await expect(other.runs.retry(id.replace(/.$/, (c) => (c === '0' ? '1' : '0')), 'admin:owner')).rejects.toThrow(/not found/i);
    expect((await other.runs.retry(flakyId, 'admin:second')).status).toBe('pending');
    expect(await one.runs.waitFor(flakyId, 10_000)).toMatchObject({ status: 'completed', startedBy: 'admin:second', lastError: null });
    expect(await doneSteps(flakyRun.id)).toEqual(['x', 'y', 'z']);
    await other.stop();
    await one.stop();
  });

  it('a stopping process hands its run back at once, the take not counted; a restart kind forgets its steps on retry; retry waits for an active run of the kind', async () => {
    const slow = runKind('handed-back', async (run) => {
      for (let step = 1; step <= 50; step++) await run.step(`s${step}`, () => sleep(100));
    });
    const first = process_([slow], { leaseMs: 30_000 });
    const { run } = await first.runs.begin(slow, {}, { startedBy: 'system' });
    const id = run.id.split('.')[1];
    await waitFor(async () => ((await first.runs.get(id)).steps.length ?? 0) >= 2, 10_000, 'two steps done');
    await first.stop();
    const second = process_([slow], { leaseMs: 30_000 });
    // Taken up at once, not after the 30 s lease: the stopping process gave it back.
    const done = await second.runs.waitFor(id, 15_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 1 });

    let plans = 0;
    let failNext = true;
    const replan = runKind(
      'replans',
      async (ctx) => {
        await ctx.step('plan', async () => ++plans);
        await ctx.step('send', async () => {
          if (failNext) {
            failNext = false;
            throw new Error('shop down');
          }
        });
      },
      { exclusive: true, retry: 'restart' },
    );
    second.runs.register([replan]);
    const failedRun = (await second.runs.begin(replan, {}, { startedBy: 'system' })).run;
    const failedId = failedRun.id.split('.')[1];
    expect(await second.runs.waitFor(failedId, 10_000)).toMatchObject({ status: 'failed' });
    // Another run of the kind is active: the retry is refused with 409, naming it.
    let release: () => void = () => undefined;
    const holding = runKind('replans-holder', () => new Promise<void>((resolve) => (release = resolve)));
    second.runs.register([holding]);
    await database.db.$executeRawUnsafe(
      `INSERT INTO "${schema}".runs (id, kind, status, started_by, exclusive_key) VALUES (gen_random_uuid(), 'replans-holder', 'pending', 'system', 'replans')`,
    );
    await waitFor(async () => (await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${schema}".runs WHERE kind = 'replans-holder' AND status = 'in_progress'`))[0].n === 1, 10_000, 'the holder running');
    await expect(second.runs.retry(failedId, 'admin:owner')).rejects.toMatchObject({ status: 409, message: expect.stringContaining('retry this one once it has ended') });
    release();
    await waitFor(async () => (await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${schema}".runs WHERE kind = 'replans-holder' AND status = 'completed'`))[0].n === 1, 10_000, 'the holder done');
    const oldPlan = (await second.runs.get(failedId)).steps.find((step) => step.name === 'plan')!;
    // The retry forgets the steps; the run may already be running again when its view is read, so any step it shows is a new one.
    const retried = await second.runs.retry(failedId, 'admin:owner');
    for (const step of retried.steps) expect(Date.parse(step.completedAt)).toBeGreaterThan(Date.parse(oldPlan.completedAt));
    expect(await second.runs.waitFor(failedId, 10_000)).toMatchObject({ status: 'completed' });
    expect(plans).toBe(2); // planned again after the retry
    await second.stop();
  });

  it('a cancelled run whose code does not stop is ended as cancelled after the grace, freeing its kind', async () => {
    let entered = false;
    const stuck = runKind('stuck', () => {
      entered = true;
      return new Promise(() => undefined);
    }, { exclusive: true });
    const one = process_([stuck], { heartbeatMs: 100, cancelGraceMs: 500 });
    const { run } = await one.runs.begin(stuck, {}, { startedBy: 'system' });
    const id = run.id.split('.')[1];
    // In its code, not just taken: a cancel before the code starts stops it at once, with no grace to run out.
    await waitFor(async () => entered && (await one.runs.peek(id))?.status === 'in_progress', 10_000, 'the run\'s code to start');
    await one.runs.cancel(id);
    await waitFor(async () => (await one.runs.peek(id))?.status === 'cancelled', 5_000, 'cancelled after the grace');
    expect((await one.runs.peek(id))?.lastError).toMatch(/had not stopped/);
    expect((await one.runs.begin(stuck, {}, { startedBy: 'system' })).joined).toBe(false);
  });

  it('an exclusive kind has one active run: twenty starts at once give one run, the rest join it', async () => {
    const sync = runKind('sync-once', () => sleep(300), { exclusive: true });
    const one = process_([sync]);
    const starts = await Promise.all(Array.from({ length: 20 }, () => one.runs.begin(sync, {}, { startedBy: 'admin:owner' })));
    expect(new Set(starts.map((start) => start.run.id)).size).toBe(1);
    expect(starts.filter((start) => !start.joined)).toHaveLength(1);
    await one.runs.waitFor(starts[0].run.id.split('.')[1], 10_000);
    expect((await one.runs.begin(sync, {}, { startedBy: 'admin:owner' })).joined).toBe(false);
    await one.stop();
  });

  it('a press runs with the settings as they are when pressed: it joins a run of the same settings only, waits for one of other settings, then starts its own', async () => {
    let settings = { days: 3 };
    // Each run holds until the test opens its gate.
    const gates = new Map<string, { opened: Promise<void>; open: () => void }>();
    const gate = (runId: string) => {
      if (!gates.has(runId)) {
        let open: () => void = () => undefined;
        const opened = new Promise<void>((resolve) => (open = resolve));
        gates.set(runId, { opened, open });
      }
      return gates.get(runId)!;
    };
    let failOnce = false;
    // The run answers the settings it worked with (its input), once its gate opens.
    const check = runKind<{ days: number }, { days: number }>(
      'settings-check',
      async (run) => {
        await gate(run.id).opened;
        if (failOnce) {
          failOnce = false;
          throw new Error('ManyChat down');
        }
        return { days: run.input.days };
      },
      { exclusive: true, inputNow: async () => ({ ...settings }) },
    );
    const one = process_([check]);
    const press = (waitMs = 10_000) => one.runs.press(check, { startedBy: 'admin:owner', waitMs });
    const rowId = (id: string) => id.split('.')[1];

    // The hourly tick's run, holding: it took the settings of its tick.
    await one.scheduler.start([schedule('settings-check', '0 * * * *', check)]);
    const tickRun = (await one.scheduler.tick('settings-check', new Date()))!;
    expect(tickRun).not.toBeNull();
    // Same settings: the press joins it and says so.
    expect(await press()).toMatchObject({ joined: true, run: { id: tickRun } });

    // The settings change, then a press while the old run still holds: not joined; it waits for that run to end, then runs its own.
    settings = { days: 5 };
    const pressed = press();
    await sleep(500);
    expect((await one.runs.peek(rowId(tickRun)))?.status).toMatch(/pending|in_progress/);
    gate(tickRun).open();
    const own = await pressed;
    expect(own.joined).toBe(false);
    expect(own.run.id).not.toBe(tickRun);
    expect(await one.runs.waitFor(rowId(tickRun), 10_000)).toMatchObject({ status: 'completed', result: { days: 3 } });
    // Two presses at once with the new settings, while the first press's run holds: both join it.
    const both = await Promise.all([press(), press()]);
    expect(both.map((start) => [start.run.id, start.joined])).toEqual([[own.run.id, true], [own.run.id, true]]);
    gate(own.run.id).open();
    expect(await one.runs.waitFor(rowId(own.run.id), 10_000)).toMatchObject({ status: 'completed', result: { days: 5 } });

    // Two presses at once with no run going: one starts it, the other joins it.
    const pair = await Promise.all([press(), press()]);
    expect(new Set(pair.map((start) => start.run.id)).size).toBe(1);
    expect(pair.map((start) => start.joined).sort()).toEqual([false, true]);
    // A run of other settings that outlasts the press's wait: 409, naming it; nothing else starts.
    settings = { days: 7 };
    await expect(press(300)).rejects.toMatchObject({ status: 409, message: expect.stringContaining('started with other settings is still'), details: { activeRunId: pair[0].run.id } });
    gate(pair[0].run.id).open();
    expect(await one.runs.waitFor(rowId(pair[0].run.id), 10_000)).toMatchObject({ status: 'completed', result: { days: 5 } });

    // A retry is pressed now too: a failed run retried after a settings change runs with the new ones.
    failOnce = true;
    const failing = await press();
    gate(failing.run.id).open();
    expect(await one.runs.waitFor(rowId(failing.run.id), 10_000)).toMatchObject({ status: 'failed', lastError: 'ManyChat down' });
    settings = { days: 9 };
    await one.runs.retry(rowId(failing.run.id), 'admin:owner');
    expect(await one.runs.waitFor(rowId(failing.run.id), 10_000)).toMatchObject({ status: 'completed', result: { days: 9 } });
    // A tick takes the settings of its moment.
    settings = { days: 11 };
    const later = (await one.scheduler.tick('settings-check', new Date(Date.now() + 3_600_000)))!;
    gate(later).open();
    expect(await one.runs.waitFor(rowId(later), 10_000)).toMatchObject({ status: 'completed', result: { days: 11 }, startedBy: 'schedule:settings-check' });
    await one.stop();
  });

  it("three replicas and 100 forced ticks start exactly 100 runs, none lost or doubled when the last tick's winner is killed during a tick's claims", async () => {
    const tickRun = runKind('tick-work', async (run) => {
      await run.step('work', async () => {
        await sleep(20);
        await recordStep(run.id, 'tick');
      });
    });
    const replicas = [0, 1, 2].map(() => process_([tickRun], { leaseMs: 1_000, heartbeatMs: 200 }));
    for (const replica of replicas) await replica.scheduler.start([schedule('every-hour', '0 * * * *', tickRun)]);
    const base = Date.UTC(2027, 0, 1);
    let lastWinner = 0;
    let killed = -1;
    for (let tick = 0; tick < 100; tick++) {
      // Each tick fires on every live replica at once, as their cron timers would.
      const at = new Date(base + tick * 3_600_000);
      const live = replicas.map((replica, index) => ({ replica, index })).filter(({ index }) => index !== killed);
      const claims = live.map(({ replica }) => replica.scheduler.tick('every-hour', at).catch(() => 'cut off' as const));
      if (tick === 50) {
        // Mid-way, the replica that won the last tick (its run likely still running there) dies
        // while this tick's claims are in flight: its claim may be cut off or may have committed.
        killed = lastWinner;
        await replicas[killed].kill();
      }
      // A killed process's own claim may never settle (its sockets are gone): it is not waited for long.
      const claimed = await Promise.all(claims.map((claim, n) => (live[n].index === killed ? Promise.race([claim, sleep(2_000).then(() => 'cut off' as const)]) : claim)));
      const winners = live.filter((_, n) => typeof claimed[n] === 'string' && claimed[n] !== 'cut off');
      if (tick === 50) expect(winners.filter(({ index }) => index !== killed).length).toBeLessThanOrEqual(1);
      else expect(winners).toHaveLength(1);
      lastWinner = winners[0]?.index ?? lastWinner;
    }
    const runs = async () =>
      database.db.$queryRawUnsafe<{ status: string; n: number }[]>(`SELECT status, count(*)::int AS n FROM "${schema}".runs WHERE kind = 'tick-work' GROUP BY status`);
    await waitFor(async () => (await runs()).every((row) => row.status === 'completed'), 30_000, 'every tick run to complete');
    expect(await runs()).toEqual([{ status: 'completed', n: 100 }]);
    const perRun = await database.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${schema}".work_done WHERE step = 'tick' GROUP BY run_id`);
    expect(perRun).toHaveLength(100);
    // A replay of an old tick, or a second look at the last one, starts nothing.
    const [one, other] = replicas.filter((_, index) => index !== killed);
    expect(await one.scheduler.tick('every-hour', new Date(base))).toBeNull();
    expect(await other.scheduler.tick('every-hour', new Date(base + 99 * 3_600_000))).toBeNull();
    const [listed] = await one.scheduler.list();
    expect(listed).toMatchObject({ name: 'every-hour', expression: '0 * * * *', runKind: 'tick-work', lastTickAt: new Date(base + 99 * 3_600_000).toISOString() });
    expect(listed.nextRunAt).not.toBeNull();
    expect(listed.lastRunId).toMatch(/^shop-sync\./);
  });

  it('streams a run as server-sent events: each change once, a heartbeat, the end; Last-Event-ID resumes; closing the server ends the stream', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated = runKind('gated', async (run) => {
      run.progress({ current: 1, total: 2 });
      await run.step('wait', () => gate);
      run.progress({ current: 2 });
    });
    const one = process_([gated]);
    const app = createServiceApp({ service: SERVICE, logger, verifier: testVerifier() });
    registerRunRoutes(app, { service: SERVICE, runs: one.runs, streamHeartbeatMs: 150 });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = signedBy('gateway', { kind: 'admin', userId: '1', email: 'a@example.com', isAdmin: true, keyId: null });
    const read = async (id: string, lastEventId?: string) => {
      const response = await fetch(`${base}/api/admin/runs/${id}/events`, { headers: { ...admin, ...(lastEventId && { 'last-event-id': lastEventId }) } });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      return { response, text: response.body!.pipeThrough(new TextDecoderStream()).getReader() };
    };
    const { run } = await one.runs.begin(gated, {}, { startedBy: 'admin:owner' });
    await waitFor(async () => (await one.runs.peek(run.id.split('.')[1]))?.progress.current === 1, 10_000, 'the first progress');
    const first = await read(run.id);
    let seen = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) {
        const { value, done } = await first.text.read();
        if (done) break;
        seen += value;
      }
    };
    await until(/: heartbeat/);
    expect(seen).toMatch(/^id: \d+\nevent: progress\ndata: \{.*"current":1/);
    release();
    await until(/event: end/);
    const ids = [...seen.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(new Set(ids).size).toBe(ids.length);
    const lastData = [...seen.matchAll(/^data: (\{"id".*)$/gm)].at(-1)![1];
    expect(JSON.parse(lastData)).toMatchObject({ status: 'completed', progress: { current: 2, total: 2 } });
    // Resumed from the last id: only the end.
    const resumed = await read(run.id, String(ids.at(-1)));
    let rest = '';
    for (let chunk = await resumed.text.read(); !chunk.done; chunk = await resumed.text.read()) rest += chunk.value;
    expect(rest).toBe('event: end\ndata: {"status":"completed"}\n\n');
    // Unknown run: 404 before any stream.
    expect((await fetch(`${base}/api/admin/runs/${SERVICE}.00000000-0000-4000-8000-000000000000/events`, { headers: admin })).status).toBe(404);
    // A stream of a run still going ends when the server closes.
    const waiting = runKind('waiting', (run) => new Promise((_, reject) => run.signal.addEventListener('abort', () => reject(run.signal.reason))));
    one.runs.register([waiting]);
    const pending = (await one.runs.begin(waiting, {}, { startedBy: 'admin:owner' })).run;
    const open = await read(pending.id);
    await open.text.read();
    await app.close();
    await expect(open.text.read().then((chunk) => chunk.done)).resolves.toBe(true);
  });
});
