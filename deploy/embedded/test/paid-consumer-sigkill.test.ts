import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import amqp from 'amqplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RabbitMqTransport } from '@bo/platform/events';
import { bundleService, serviceNodeArgs } from '@bo/platform/scripts/service-bundle';
import { loadServiceDefinition } from '@bo/platform/service';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { identityEnv, signerOf } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import { createEnvelope, paymentsInvoicePaid } from '@bo/proto';
import { freePort } from '@bo/sim-kit';
import { eventually } from '@bo/platform/testing/eventually';

const ORDERS = 50;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Issue 9: "A consumer killed with SIGKILL between its effect and its ack, 50 times: each effect
 * once." streaming-keys runs as its own process (its container's command) and reaches RabbitMQ
 * through a proxy. For each paid order the proxy swallows what the process sends from then on, so
 * its ack never reaches the broker; once the key assignment has committed, the process is killed
 * with SIGKILL: the broker puts the message back (proven by the queue holding it again), and the
 * restarted process must find the order already served.
 */
describe('the paid-order consumer killed between its effect and its ack', () => {
  let database: TestDatabase;
  let vhost: TestVhost;
  let proxy: TcpProxy;
  let publisher: RabbitMqTransport;
  let broker: amqp.ChannelModel;
  let db: pg.Client;
  let child: ChildProcess | null = null;
  let port: number;
  let env: Record<string, string>;
  /** streaming-keys' bundle with its node options: its container's command. */
  let nodeArgs: string[];

  const start = async () => {
    child = spawn(process.execPath, nodeArgs, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await eventually(async () => {
      if (child!.exitCode !== null) throw new Error(`streaming-keys exited: ${stderr}`);
      return fetch(`http://127.0.0.1:${port}/ready`).then((response) => response.ok, () => false);
    }, 60_000, 'streaming-keys ready');
  };
  const kill = async () => {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGKILL');
    await exited;
  };
  const admin = async (method: string, url: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${url}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-internal-identity': signerOf('gateway').sign({ kind: 'admin', userId: '1', email: 'ops@example.com', isAdmin: true, keyId: null }) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  };
  /** Messages in streaming-keys' queue not delivered to a consumer; a channel of its own each time, so one broker refusal cannot poison the next look. */
  const waiting = async () => {
    const look = await broker.createChannel();
    look.on('error', (error) => console.warn(`queue look failed: ${(error as Error).message}`));
    try {
      return (await look.checkQueue('streaming-keys')).messageCount;
    } finally {
      await look.close().catch(() => undefined);
    }
  };
  const paidOrder = (n: number) =>
    createEnvelope(paymentsInvoicePaid, {
      invoiceId: `INV-KILL${String(n).padStart(6, '0')}`,
      revision: 1,
      amount: 35_000,
      description: 'Netflix 1 сар',
      paidAt: new Date().toISOString(),
      paymentId: String(900_000_000_000 + n),
      approvedBy: null,
      payer: { name: `Buyer ${n}`, email: `buyer${n}@example.mn`, phone: null, subscriberId: String(6_000_000 + n) },
      order: { kind: 'streaming', serviceCode: 'NFX', months: 1, email: `buyer${n}@example.mn`, streamingInvoiceId: null },
    }, null);

  beforeAll(async () => {
    nodeArgs = serviceNodeArgs(await loadServiceDefinition('streaming-keys'));
    await bundleService('streaming-keys');
    database = await createTestDatabase('paid_sigkill');
    vhost = await createTestVhost('paid_sigkill');
    const target = new URL(vhost.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
    const proxied = new URL(vhost.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    port = await freePort();
    env = {
      PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production',
      DATABASE_URL: database.url, REDIS_URL: 'redis://127.0.0.1:6379/9', AMQP_URL: proxied.toString(),
      ...identityEnv('streaming-keys'), DATA_ENCRYPTION_KEY: 'sigkill-test-data-encryption-key-32-chars', PAYMENTS_URL: 'http://127.0.0.1:9', PUBLIC_URL: 'http://localhost:5000',
    };
    publisher = await RabbitMqTransport.connect({ url: vhost.url });
    broker = await amqp.connect(vhost.url);
    broker.on('close', () => console.warn('the test\'s own broker connection closed'));
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await start();
    // The chat orders pay Netflix's listed price (one below its price would wait for an admin).
    await admin('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 });
    for (let account = 0; account < ORDERS / 5; account++) await admin('POST', '/api/streaming-keys', { service: 'NFX', email: `nfx.kill${account}@example.mn`, months: 1, profiles: 5 });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) await kill();
    await db?.end();
    await broker?.close().catch(() => undefined);
    await publisher?.close();
    await proxy?.close();
    await vhost?.delete();
    await database?.drop();
  });

  it(`assigns each of ${ORDERS} paid orders exactly one key across ${ORDERS} kills`, { timeout: 600_000 }, async () => {
    const assigned = async (invoiceId: string) =>
      (await db.query(`SELECT count(*)::int AS n FROM streaming_keys.streaming_invoices WHERE invoice_id = $1 AND key_id IS NOT NULL`, [invoiceId])).rows[0].n as number;
    let requeued = 0;
    for (let n = 0; n < ORDERS; n++) {
      const envelope = paidOrder(n);
      proxy.swallowFromClients();
      await publisher.publish(envelope);
      await eventually(async () => (await assigned(envelope.payload.invoiceId)) === 1, 30_000, `order ${n}'s key committed`);
      await kill();
      proxy.cutAll();
      proxy.resume();
      // The ack never arrived: the broker holds the message for the next consumer.
      await eventually(async () => (await waiting()) >= 1, 10_000, `order ${n} back in the queue`);
      requeued++;
      await start();
      await eventually(async () => (await waiting()) === 0, 30_000, `order ${n} taken again`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(requeued).toBe(ORDERS);
    const invoices = (await db.query(`SELECT invoice_id, status, key_id FROM streaming_keys.streaming_invoices ORDER BY invoice_id`)).rows;
    expect(invoices).toHaveLength(ORDERS);
    expect(invoices.every((row) => row.status === 'PAID' && row.key_id !== null)).toBe(true);
    expect(new Set(invoices.map((row) => row.key_id)).size).toBe(ORDERS);
    const keys = (await db.query(`SELECT count(*)::int AS n FROM streaming_keys.streaming_keys WHERE assigned_at IS NOT NULL`)).rows[0].n;
    expect(keys).toBe(ORDERS);
    const events = (await db.query(`SELECT count(*)::int AS n FROM streaming_keys.outbox_events WHERE name = 'streaming.key.assigned'`)).rows[0].n;
    expect(events).toBe(ORDERS);
  });
});
