import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, formatPublicKeys, generateIdentityKeyPair, serviceEnvSchema, type ServiceEnv } from '@bo/platform';
import { onEvent, outsideEffect, type OutsideEffect } from '@bo/platform/events';
import { runKind, schedule, type Runs } from '@bo/platform/runs';
import { connectInfrastructure, type Infrastructure } from '@bo/platform/runtime';
import { defineService, type RunningService, type ServiceContext } from '@bo/platform/service';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { signedBy, TEST_IDENTITY_PUBLIC_KEYS } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import { PrismaClient } from '../fixtures/demo/src/generated/prisma/client';
import { demoMigrationsDir } from '../db/demo-fixture';
import { DEMO, serveAddWidget, widgetAdded } from '../fixtures/demo/widgets';

// A service with every background part a real one has (outbox relay, consumer, outside effects,
// runs, a schedule every second, the alert check every second), its database behind a proxy that
// a test can cut, and its log lines kept.
const keys = generateIdentityKeyPair();
const identity = { IDENTITY_PRIVATE_KEY: keys.privateKey, IDENTITY_PUBLIC_KEYS: `${TEST_IDENTITY_PUBLIC_KEYS},${formatPublicKeys({ demo: keys })}` };
const admin = signedBy('gateway', { kind: 'admin', userId: '1', email: 'a@example.com', isAdmin: true, keyId: null });

const announced: string[] = [];
const announce = outsideEffect<{ name: string }>('announce-widget', async (payload) => void announced.push(payload.name));
/** A run that is under way when the database goes: its lease cannot be renewed meanwhile. */
const slow = runKind('slow', async (run) => {
  for (let i = 0; i < 80 && !run.signal.aborted; i++) await new Promise((resolve) => setTimeout(resolve, 100));
});

const demo = defineService({
  name: DEMO,
  configSchema: serviceEnvSchema,
  prisma: PrismaClient,
  migrationsDir: demoMigrationsDir,
  simulatorEnv: () => ({}),
  deployment: { settings: {}, secrets: {} },
  async build({ outbox, effects, runs }: ServiceContext<ServiceEnv, PrismaClient>) {
    return {
      routes(app) {
        serveAddWidget(app, outbox);
      },
      outsideEffects: [announce as OutsideEffect<never>],
      consumers: [onEvent(widgetAdded, async (tx, envelope) => void (await effects.record(tx, envelope.id, announce, { name: envelope.payload.name })))],
      runs: [slow],
      schedules: [schedule('tick', '* * * * * *', runKind('tick', async () => undefined, { exclusive: true }))],
      configItems: () => [],
      exposed: { runs },
    };
  },
});

type Line = { level: number; msg: string; [field: string]: unknown };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('logs across a database outage', () => {
  let testDb: TestDatabase;
  let vhost: TestVhost;
  let proxy: TcpProxy;
  let infrastructure: Infrastructure;
  let service: RunningService<PrismaClient, { runs: Runs }>;
  const lines: Line[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('outage_logs');
    vhost = await createTestVhost('outage-logs');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(testDb.url).port || 5432) });
    const logger = createLogger('demo', 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) });
    const databaseUrl = Object.assign(new URL(testDb.url), { port: String(proxy.port) }).toString();
    const config = serviceEnvSchema.parse({ PORT: '0', LOG_LEVEL: 'info', ...identity, DATABASE_URL: databaseUrl, REDIS_URL: 'redis://127.0.0.1:6379', AMQP_URL: vhost.url, ALERT_CHECK_CRON: '* * * * * *' });
    infrastructure = await connectInfrastructure(config, `demo-${randomUUID()}`, logger);
    service = (await demo.start({ config, logger, infrastructure, checkReplies: true })) as never;
  });

  afterAll(async () => {
    proxy?.resume();
    await service?.stop();
    await infrastructure?.close();
    await proxy?.close();
    await vhost?.delete();
    await testDb?.drop();
  });

  it('says each state change once (warn with what to do, info when it is over) and writes no error line, however often /ready is probed', { timeout: 60_000 }, async () => {
    expect((await service.app.inject({ method: 'POST', url: '/api/demo/widgets', payload: { name: 'before' }, headers: admin })).statusCode).toBe(200);
    await expect.poll(() => announced.includes('before'), { timeout: 10_000 }).toBe(true);
    await service.exposed.runs.begin(slow, {}, { startedBy: 'test' });
    service.exposed.runs.nudge();
    await sleep(1_500);
    const from = lines.length;

    proxy.refuse();
    proxy.cutAll();
    const cutUntil = Date.now() + 4_000;
    let probes = 0;
    while (Date.now() < cutUntil) {
      // Kubernetes' probe (here four a second) and an admin's writes, refused 503 with Retry-After.
      expect((await service.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
      const refused = await service.app.inject({ method: 'POST', url: '/api/demo/widgets', payload: { name: `during-${probes}` }, headers: admin });
      expect(refused.statusCode).toBe(503);
      probes++;
      await sleep(250);
    }
    proxy.resume();
    await expect.poll(async () => (await service.app.inject({ method: 'GET', url: '/ready' })).statusCode, { timeout: 15_000 }).toBe(200);
    expect((await service.app.inject({ method: 'POST', url: '/api/demo/widgets', payload: { name: 'after' }, headers: admin })).statusCode).toBe(200);
    await expect.poll(() => announced.includes('after'), { timeout: 15_000 }).toBe(true);
    // Every part that said it failed says it works again (the relay, the effects, the runs poller, the schedule…).
    const during = () => lines.slice(from);
    const warned = () => during().filter((line) => line.level === 40);
    const shown = () => during().map((line) => `${line.level} ${line.msg}`).join('\n');
    const recovered = () => during().filter((line) => line.level === 30 && line.failedForMs !== undefined).length === warned().filter((line) => !line.msg.startsWith('not ready')).length;
    await expect.poll(recovered, { timeout: 15_000, message: shown() }).toBe(true);
    await sleep(1_500);

    expect(probes).toBeGreaterThan(10);
    expect(during().filter((line) => line.level >= 50)).toEqual([]);
    const readiness = during().filter((line) => line.msg.startsWith('not ready') || line.msg === 'ready again');
    expect(readiness.map((line) => [line.level, line.msg.split(':')[0]])).toEqual([[40, 'not ready'], [30, 'ready again']]);
    expect(readiness[0].msg).toMatch(/^not ready: the database is unreachable: .+; \/ready answers 503 .* until it is back: check PostgreSQL and DATABASE_URL$/);
    // Each part warns once, naming the error and what happens meanwhile.
    const sources = warned().map((line) => line.msg.split(':')[0]);
    expect(new Set(sources).size, shown()).toBe(sources.length);
    expect(sources).toEqual(expect.arrayContaining(['not ready', 'the outbox relay cannot read its outbox', 'outside effects cannot be read', 'runs cannot be looked for', 'the schedule tick cannot start its runs', 'the schedule alert-check cannot start its runs', expect.stringMatching(/^the slow run [\w-]+ cannot renew its lease$/)]));
    expect(warned().length).toBeLessThanOrEqual(8);
  });
});
