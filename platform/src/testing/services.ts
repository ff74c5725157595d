import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { urlVariableOf, type DomainServiceName, type EventEnvelope } from '@bo/proto';
import { signIdentity, type Identity } from '../identity';
import { createLogger } from '../logging';
import { PgTransport } from '../events';
import { connectInfrastructure, embeddedInfrastructure, type Infrastructure } from '../runtime';
import type { RunningService, ServiceDefinition } from '../service';
import { createTestDatabase } from './database';
import { createTestVhost } from './rabbitmq';

/** The identity secret every test system signs with. */
export const TEST_IDENTITY_SECRET = 'test-system-identity-secret-of-32-chars!';
export const TEST_DATA_ENCRYPTION_KEY = 'test-system-data-encryption-key-32-chars!';
/** The chat webhook secret payments starts with in a test system (what the chat flow's X-Webhook-Secret header must be). */
export const TEST_QPAY_WEBHOOK_SECRET = 'test-system-chat-webhook-secret-0123456789';

/** Headers of a request as the gateway forwards it for `identity`; signed afresh on each read (a signature is short-lived). */
export function signedAs(identity: Omit<Identity, 'iat'>): Record<string, string> {
  return {
    get 'x-internal-identity'() {
      return signIdentity(identity, TEST_IDENTITY_SECRET);
    },
  };
}
export const asAdmin = signedAs({ kind: 'admin', userId: '1', email: 'admin@example.com', isAdmin: true, keyId: null });

/** A service's answer as tests read it: status, parsed JSON body (null when empty), headers (a redirect's Location). */
export interface TestReply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- each test reads the fields it asserts on
  headers: Headers;
}

export interface TestSystemOptions {
  /** The services that will run; each gets a port now, so every one knows every other's URL. */
  services: DomainServiceName[];
  /** The bus: RabbitMQ in its own vhost (the distributed run), or the embedded run's queue in PostgreSQL. */
  transport?: 'rabbitmq' | 'embedded';
}

export interface TestSystem {
  /** Where a service listens (known before it starts). */
  url(name: DomainServiceName): string;
  /** Settings every service gets: database, Redis, bus, secrets, every service's URL. */
  env: Record<string, string>;
  /** Starts a service from its definition with `env` over the common settings; replies are checked against their contracts. */
  start<S extends RunningService>(definition: ServiceDefinition<never, never, never>, env?: Record<string, string>): Promise<S>;
  /** Stops a running service and starts it again on the same port and database, with the same settings. */
  restart<S extends RunningService>(name: DomainServiceName): Promise<S>;
  running(name: DomainServiceName): RunningService | undefined;
  /**
   * An HTTP request to a service as the gateway forwards it: as an admin unless `headers` say
   * otherwise (`{}` is anonymous). Redirects are not followed.
   */
  call(name: DomainServiceName, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** Publishes an event on the bus, as a relay would. */
  publish(envelope: EventEnvelope): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Services as they run in production, for one test suite: each in its own PostgreSQL schema of a
 * fresh database, on Redis and on RabbitMQ in a fresh vhost (or the PostgreSQL bus), each on its
 * own port and knowing the others' URLs. Outside systems (simulators) are the suite's to start.
 */
export async function startTestSystem(name: string, options: TestSystemOptions): Promise<TestSystem> {
  const logger = createLogger(name, 'silent');
  const database = await createTestDatabase(name);
  const vhost = options.transport === 'embedded' ? null : await createTestVhost(name);
  const embeddedBus = options.transport === 'embedded' ? await PgTransport.connect({ url: database.url }) : null;
  const ports = Object.fromEntries(await Promise.all(options.services.map(async (service) => [service, await freePort()] as const))) as Record<DomainServiceName, number>;
  const url = (service: DomainServiceName) => `http://127.0.0.1:${ports[service]}`;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL: 'redis://127.0.0.1:6379',
    ...(vhost ? { AMQP_URL: vhost.url } : {}),
    INTERNAL_IDENTITY_SECRET: TEST_IDENTITY_SECRET,
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    QPAY_WEBHOOK_SECRET: TEST_QPAY_WEBHOOK_SECRET,
    LOG_LEVEL: 'silent',
    ...Object.fromEntries(options.services.map((service) => [urlVariableOf(service), url(service)])),
  };
  const infrastructures: Infrastructure[] = [];
  const services = new Map<DomainServiceName, { running: RunningService; definition: ServiceDefinition<never, never, never>; env: Record<string, string> }>();

  const launch = async (definition: ServiceDefinition<never, never, never>, extra: Record<string, string>) => {
    const service = definition.name as DomainServiceName;
    if (!(service in ports)) throw new Error(`${service} is not among this test system's services`);
    const config = definition.configSchema.parse({ ...env, PORT: String(ports[service]), ...extra }) as never;
    const infrastructure = embeddedBus
      ? await embeddedInfrastructure({ databaseUrl: database.url, transport: embeddedBus })
      : await connectInfrastructure(config, `${name}-${service}-${randomUUID()}`, logger);
    infrastructures.push(infrastructure);
    const running = await definition.start({ config, logger, infrastructure, checkReplies: true });
    await running.app.listen({ port: ports[service], host: '127.0.0.1' });
    services.set(service, { running, definition, env: extra });
    return running;
  };

  return {
    url,
    env,
    start: async (definition, extra = {}) => (await launch(definition, extra)) as never,
    async restart(service) {
      const entry = services.get(service);
      if (!entry) throw new Error(`${service} is not running`);
      await entry.running.stop();
      services.delete(service);
      return (await launch(entry.definition, entry.env)) as never;
    },
    running: (service) => services.get(service)?.running,
    async call(service, method, path, body, headers = asAdmin) {
      const response = await fetch(`${url(service)}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
    },
    publish: (envelope) => (embeddedBus ?? infrastructures[0].transport).publish(envelope),
    async stop() {
      for (const { running } of [...services.values()].reverse()) await running.stop();
      for (const infrastructure of infrastructures) await infrastructure.close();
      await embeddedBus?.close();
      await vhost?.delete();
      await database.drop();
    },
  };
}
