import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { eventually } from '@bo/platform/testing/eventually';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { EVENTS_EXCHANGE } from '@bo/platform/events';
import { pricingPriceUpdated } from '@bo/proto';
import { startDistributed, type DistributedSystem } from '../src/distributed';
import { stopProcess } from '../src/supervisor';
import { checkBackgroundWork } from './support/background-work';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const faultOnSignal = path.join(root, 'platform/test/fixtures/processes/uncaught-on-signal.mjs');

// `make start-distributed` as a system test: separate processes started with the containers'
// commands, on the machine's PostgreSQL, Redis and RabbitMQ (a database and vhost of its own).
describe('the distributed topology on one machine', () => {
  let database: TestDatabase;
  let vhost: TestVhost;
  let dataDir: string;
  let system: DistributedSystem;
  let listener: amqp.ChannelModel;
  const heard: { name: string; payload: { product: string } }[] = [];
  const supervisorLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('distributed');
    vhost = await createTestVhost('distributed');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'distributed-'));
    system = await startDistributed({
      databaseUrl: database.url, amqpUrl: vhost.url, redisUrl: 'redis://127.0.0.1:6379/7', port: 0, freeServicePorts: true, simulatorBasePort: 0, dataDir, quiet: true,
      // Pricing can be made to fail with SIGUSR2 (an injected exception nobody catches).
      environment: { pricing: { NODE_OPTIONS: `--import ${faultOnSignal}` } },
      log: (line) => supervisorLines.push(line),
    });
    // A consumer in another process than pricing: this test, with a queue of its own on the exchange.
    listener = await amqp.connect(vhost.url);
    const channel = await listener.createChannel();
    await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, EVENTS_EXCHANGE, pricingPriceUpdated.name);
    await channel.consume(queue, (message) => message && heard.push(JSON.parse(message.content.toString())), { noAck: true });
  }, 120_000);

  afterAll(async () => {
    await listener?.close();
    await system?.stop();
    await vhost?.delete();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('carries a price edit from the gateway to pricing, its outbox, RabbitMQ and a consumer in another process', async () => {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', 'ops', '--password', 'a long enough password'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: database.url },
    });
    const login = await fetch(`${system.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'ops', password: 'a long enough password' }) });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const { token } = (await (await fetch(`${system.url}/api/auth/csrf`, { headers: { cookie } })).json()) as { token: string };

    const rows = (await (await fetch(`${system.url}/api/prices?format=array`)).json()) as { data: Record<string, string>[] };
    const row = rows.data[3];
    const edit = await fetch(`${system.url}/api/sheets/update`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ ...row, salePrice: '12345' }),
    });
    expect(edit.status, await edit.clone().text()).toBe(200);
    await expect.poll(() => heard.filter((event) => event.payload.product === row.product).length, { timeout: 15_000 }).toBe(1);
  });

  it('shows background work through the gateway: a sync as a run, its event stream, the schedules of every service', async () => {
    await checkBackgroundWork(system.url, database.url, system.simulators.urls.woocommerce);
  });

  // Issue 33: each way of running starts a failed process again (make start: make-start.test).
  it('starts a process again when it fails: an exception nobody caught (its last line, exit 1), then a SIGKILL as an OOM killer sends it', async () => {
    const serving = () => fetch(`${system.serviceUrls.pricing}/health`).then((response) => response.ok, () => false);
    const first = system.processes.pricing;
    process.kill(first.pid!, 'SIGUSR2');
    await eventually(() => system.restarts('pricing') === 1, 120_000, 'pricing to serve again after its failure', 200);
    expect(system.processes.pricing.pid).not.toBe(first.pid);
    // The launcher's line carries the process's last log lines (its output is not shown when quiet).
    const [, lastWords] = /^pricing ended with exit code 1: ([\s\S]*); starting it again$/.exec(supervisorLines[0]) ?? [];
    const fatal = lastWords?.split('\n').map((line) => JSON.parse(line) as { level: number }).find((entry) => entry.level === 60);
    expect(fatal).toMatchObject({ name: 'pricing', origin: 'uncaught exception', err: { message: 'injected fault: an exception nobody catches' } });
    expect(await serving()).toBe(true);
    expect((await fetch(`${system.url}/api/prices`)).status).toBe(200);

    system.processes.pricing.kill('SIGKILL');
    await eventually(() => system.restarts('pricing') === 2, 120_000, 'pricing to serve again after SIGKILL', 200);
    expect(supervisorLines).toContainEqual(expect.stringMatching(/^pricing ended with signal SIGKILL; starting it again/));
    expect(await serving()).toBe(true);
  });

  // Exit code 0 is the process stopping by itself, its stop done (the request log flushed, checked
  // below): one still running when stopProcess gives up (the launcher's STOP_TIMEOUT_MS) is killed
  // and has no exit code. The 10 s is docker stop's default grace; the stop is not timed here, as a
  // busy machine may take longer over it without anything being wrong.
  it('stops each process on SIGTERM with exit code 0 within 10 s, and the gateway flushes its request log first', async () => {
    const sent = 25;
    for (let i = 0; i < sent; i++) expect((await fetch(`${system.url}/api/prices?sigterm=${i}`)).status).toBe(200);
    expect(await stopProcess(system.processes.gateway)).toBe(0);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query(`SELECT count(*)::int AS logged FROM gateway.api_requests WHERE endpoint = '/api/prices' AND method = 'GET'`);
    await client.end();
    expect(rows[0].logged).toBeGreaterThanOrEqual(sent);

    expect(await stopProcess(system.processes.pricing)).toBe(0);
  });
});
