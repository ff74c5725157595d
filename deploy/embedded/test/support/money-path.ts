import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@bo/platform/testing/database';
import { createTestVhost } from '@bo/platform/testing/rabbitmq';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import type { DomainServiceName } from '@bo/proto';
import { startDistributed, type DistributedSystem } from '../../src/distributed';
import { loadOrCreateSecrets, signerOf } from '../../src/secrets';

/**
 * The money path on the distributed topology of one machine: every service its own process
 * (the containers' commands) on this machine's PostgreSQL, Redis and RabbitMQ — RabbitMQ through
 * a TCP proxy a test can cut — with the QPay and ManyChat simulators. Orders are made and paid the
 * way an admin and a payer do: a streaming invoice, then the payer pays it in the QPay simulator,
 * whose callback reaches payments through the gateway.
 */
export interface MoneyPath {
  system: DistributedSystem;
  broker: TcpProxy;
  /** The suite's database (every service's schema), for what a failed wait reports. */
  databaseUrl: string;
  /** As an admin, straight to a service (the gateway's session and CSRF are proven elsewhere). */
  admin(service: DomainServiceName, method: string, url: string, body?: unknown): Promise<any>;
  /** `count` free keys of Netflix: accounts of five profiles each. */
  addKeys(count: number): Promise<void>;
  /** Chat subscribers the ManyChat simulator knows, who wrote to the page just now (inside the 24-hour window). */
  addSubscribers(ids: string[]): Promise<void>;
  /** A streaming invoice for subscriber `subscriberId`; answers our and QPay's invoice ids. */
  order(subscriberId: string): Promise<{ streamingInvoiceId: number; invoiceId: string; qpayInvoiceId: string }>;
  /** The payer pays in the bank app: QPay records it and calls the callback (GET) at once. */
  pay(qpayInvoiceId: string): Promise<void>;
  /** Messages the ManyChat simulator accepted, for one subscriber or all. */
  messages(subscriberId?: string): Promise<{ subscriberId: string; at: string; content: unknown }[]>;
  stop(): Promise<void>;
}

export async function startMoneyPath(name: string): Promise<MoneyPath> {
  const database = await createTestDatabase(name);
  const vhost = await createTestVhost(name);
  const target = new URL(vhost.url);
  const broker = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5672) });
  const proxied = new URL(vhost.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(broker.port);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${name}-`));
  const system = await startDistributed({ databaseUrl: database.url, amqpUrl: proxied.toString(), redisUrl: 'redis://127.0.0.1:6379/8', port: 0, freeServicePorts: true, simulatorBasePort: 0, dataDir, quiet: true });
  // Signed as the run's own processes would: the admin's identity by the gateway, payments' internal read by streaming-keys (its caller).
  const secrets = await loadOrCreateSecrets(dataDir);
  const gateway = signerOf(secrets, 'gateway');
  const streamingKeys = signerOf(secrets, 'streaming-keys');

  const request = async (url: string, init: RequestInit & { json?: unknown } = {}) => {
    const response = await fetch(url, { ...init, headers: { ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers }, body: init.json === undefined ? init.body : JSON.stringify(init.json) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const admin = (service: DomainServiceName, method: string, url: string, body?: unknown) =>
    request(`${system.serviceUrls[service]}${url}`, { method, json: body, headers: { 'x-internal-identity': gateway.sign({ kind: 'admin', userId: '1', email: 'ops@example.com', isAdmin: true, keyId: null }) } });
  const asStreamingKeys = () => ({ 'x-internal-identity': streamingKeys.serviceHeader() });

  return {
    system,
    broker,
    databaseUrl: database.url,
    admin,
    async addKeys(count) {
      for (let account = 0; account * 5 < count; account++) {
        await admin('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: `nfx.pool${account}@example.mn`, months: 1, profiles: Math.min(5, count - account * 5), password: `Pool-Pass-${account}` });
      }
    },
    async addSubscribers(ids) {
      const now = new Date().toISOString();
      await request(`${system.simulators.urls.manychat}/__sim/subscribers`, { method: 'POST', json: ids.map((id) => ({ id, first_name: `Buyer ${id}`, last_interaction: now, last_seen: now })) });
    },
    async order(subscriberId) {
      const made = await admin('streaming-keys', 'POST', '/api/streaming-invoices', { email: `buyer${subscriberId}@example.mn`, service: 'NFX', duration: 1, amount: 35_000, customerName: `Buyer ${subscriberId}`, subscriberId });
      const invoiceId = made.data.invoiceId as string;
      const { invoice } = await request(`${system.serviceUrls.payments}/internal/payments/invoices/${invoiceId}`, { headers: asStreamingKeys() });
      return { streamingInvoiceId: made.data.id, invoiceId, qpayInvoiceId: invoice.qpayInvoiceId };
    },
    async pay(qpayInvoiceId) {
      await request(`${system.simulators.urls.qpay}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', json: { callback: 'get', wait: false } });
    },
    async messages(subscriberId) {
      const query = subscriberId ? `?subscriberId=${subscriberId}` : '';
      return (await request(`${system.simulators.urls.manychat}/__sim/messages${query}`)).messages;
    },
    async stop() {
      await system.stop();
      await broker.close();
      await vhost.delete();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
