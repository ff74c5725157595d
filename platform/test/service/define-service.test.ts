import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, formatPublicKeys, generateIdentityKeyPair, serviceEnvSchema, type ServiceEnv } from '@bo/platform';
import { onEvent, outsideEffect, type OutsideEffect } from '@bo/platform/events';
import { runKind, schedule } from '@bo/platform/runs';
import { connectInfrastructure, type Infrastructure } from '@bo/platform/runtime';
import { defineService, type RunningService, type ServiceContext } from '@bo/platform/service';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { asService, signedBy, TEST_IDENTITY_PUBLIC_KEYS } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { PrismaClient } from '../fixtures/demo/src/generated/prisma/client';
import { demoMigrationsDir } from '../db/demo-fixture';
import { DEMO, serveAddWidget, widgetAdded } from '../fixtures/demo/widgets';

// A made-up service built the way every real one is: its own folder's parts, defined once.
// The demo service's own key pair, listed with this suite's keys of the real processes.
const demoKeys = generateIdentityKeyPair();
const identity = { IDENTITY_PRIVATE_KEY: demoKeys.privateKey, IDENTITY_PUBLIC_KEYS: `${TEST_IDENTITY_PUBLIC_KEYS},${formatPublicKeys({ demo: demoKeys })}` };
const admin = signedBy('gateway', { kind: 'admin', userId: '1', email: 'a@example.com', isAdmin: true, keyId: null });
const gateway = asService('gateway');


const demoConfig = serviceEnvSchema;
const jobRuns = { total: 0, concurrent: 0, maxConcurrent: 0 };
const seen: string[] = [];
/** What the "outside system" received: one call per widget, after the consumer's commit. */
const announced: string[] = [];
const announce = outsideEffect<{ name: string }>('announce-widget', async (payload) => void announced.push(payload.name));

const demo = defineService({
  name: DEMO,
  configSchema: demoConfig,
  prisma: PrismaClient,
  migrationsDir: demoMigrationsDir,
  simulatorEnv: () => ({}),
  deployment: { settings: {}, secrets: {} },
  async build({ outbox, effects }: ServiceContext<ServiceEnv, PrismaClient>) {
    return {
      routes(app) {
        serveAddWidget(app, outbox);
      },
      outsideEffects: [announce as OutsideEffect<never>],
      consumers: [
        onEvent(widgetAdded, async (tx, envelope) => {
          seen.push(envelope.payload.name);
          await effects.record(tx, envelope.id, announce, { name: envelope.payload.name });
        }),
      ],
      schedules: [
        schedule(
          'count',
          '* * * * * *',
          runKind('count', async () => {
            jobRuns.total++;
            jobRuns.maxConcurrent = Math.max(jobRuns.maxConcurrent, ++jobRuns.concurrent);
            await new Promise((resolve) => setTimeout(resolve, 60));
            jobRuns.concurrent--;
          }),
        ),
      ],
      configItems: () => [{ name: 'Widgets', category: 'Demo', configured: true, simulated: false }],
    };
  },
});

describe('defineService', () => {
  let testDb: TestDatabase;
  let vhost: TestVhost;
  const infrastructures: Infrastructure[] = [];
  const replicas: RunningService[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('define_service');
    vhost = await createTestVhost('define-service');
    const prefix = `demo-${randomUUID()}`;
    for (let i = 0; i < 2; i++) {
      const config = demoConfig.parse({ PORT: '0', LOG_LEVEL: 'silent', ...identity, DATABASE_URL: testDb.url, REDIS_URL: 'redis://127.0.0.1:6379', AMQP_URL: vhost.url });
      const infrastructure = await connectInfrastructure(config, prefix, createLogger('demo', 'silent'));
      infrastructures.push(infrastructure);
      replicas.push(await demo.start({ config, logger: createLogger('demo', 'silent'), infrastructure, checkReplies: true }));
    }
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    for (const infrastructure of infrastructures) await infrastructure.close();
    await vhost?.delete();
    await testDb?.drop();
  });

  it('applies its migrations, serves its contract with validation, and its change reaches its consumer and the outside call once', async () => {
    const [first] = replicas;
    expect((await first.app.inject({ method: 'POST', url: '/api/demo/widgets', payload: { name: '' }, headers: admin })).statusCode).toBe(400);
    const added = await first.app.inject({ method: 'POST', url: '/api/demo/widgets', payload: { name: 'sprocket' }, headers: admin });
    expect(added.statusCode).toBe(200);
    await expect.poll(() => seen.filter((name) => name === 'sprocket').length, { timeout: 10_000 }).toBe(1);
    // The outside call the consumer recorded runs after its commit, once, on one of the replicas.
    await expect.poll(() => announced.filter((name) => name === 'sprocket').length, { timeout: 10_000 }).toBe(1);
  });

  it('answers the platform routes: config status for the gateway, dead letters for admins', async () => {
    const [first] = replicas;
    const status = await first.app.inject({ method: 'GET', url: '/internal/demo/config-status', headers: gateway });
    expect(status.json()).toEqual({ items: [{ name: 'Widgets', category: 'Demo', configured: true, simulated: false }] });
    expect((await first.app.inject({ method: 'GET', url: '/api/admin/events/demo/dead-letters', headers: admin })).json()).toEqual({ data: [] });
  });

  it('runs each tick of a schedule once across its two replicas, and lists the runs and the schedule', async () => {
    await expect.poll(() => jobRuns.total, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(jobRuns.maxConcurrent).toBe(1);
    const [first] = replicas;
    const runs: { schedule: string; status: string; createdAt: string }[] = (await first.app.inject({ method: 'GET', url: '/internal/demo/runs?kind=count&limit=200', headers: gateway })).json().data;
    const seconds = runs.map((run) => run.createdAt.slice(0, 19));
    expect(new Set(seconds).size).toBe(seconds.length); // one run per tick, whichever replica claimed it
    expect(runs.every((run) => run.schedule === 'count')).toBe(true);
    // The Background work view leaves a schedule's completed runs out by default.
    const quiet: { status: string }[] = (await first.app.inject({ method: 'GET', url: '/internal/demo/runs?kind=count&hideCompletedScheduled=true', headers: gateway })).json().data;
    expect(quiet.filter((run) => run.status === 'completed')).toEqual([]);
    const schedules: { name: string }[] = (await first.app.inject({ method: 'GET', url: '/internal/demo/schedules', headers: gateway })).json().data;
    // Beside the service's own, every service has the platform's (the sweep, the alert check).
    expect(schedules.map((entry) => entry.name).sort()).toEqual(['alert-check', 'count', 'sweep-messaging']);
    expect(schedules.find((entry) => entry.name === 'count')).toMatchObject({ name: 'count', service: 'demo', expression: '* * * * * *', runKind: 'count', lastTickAt: expect.any(String), nextRunAt: expect.any(String) });
  });
});
