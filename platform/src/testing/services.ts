import { randomUUID } from 'node:crypto';
import { urlVariableOf, type DomainServiceName, type EventEnvelope } from '@bo/proto';
// Ports no other process is handed (a port 0 picked and closed could be taken meanwhile by an outgoing connection).
import { freePort } from '@bo/sim-kit/ports';
import type { IdentityClaims } from '../identity';
import { createLogger, type Logger } from '../logging';
import { PgTransport } from '../events';
import { connectInfrastructure, embeddedInfrastructure, type Infrastructure } from '../runtime';
import type { RunningService, ServiceDefinition } from '../service';
import { createTestDatabase } from './database';
import { identityEnv, signedBy, TEST_IDENTITY_PUBLIC_KEYS } from './identity';
import { createTestVhost } from './rabbitmq';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

export const TEST_DATA_ENCRYPTION_KEY = 'test-system-data-encryption-key-32-chars!';
/** The chat webhook secret payments starts with in a test system (what the chat flow's X-Webhook-Secret header must be). */
export const TEST_QPAY_WEBHOOK_SECRET = 'test-system-chat-webhook-secret-0123456789';

/** Headers of a request as the gateway forwards it for `identity` (signed with this suite's gateway key, see ./identity). */
export const signedAs = (identity: IdentityClaims): Record<string, string> => signedBy('gateway', identity);
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
  /** Put a TCP proxy between PostgreSQL and everything of this system (services, the embedded bus), so a test can cut this suite's database alone. */
  databaseProxy?: boolean;
  /** Where the services log (each line names its service); silent when absent. */
  logger?: Logger;
}

export interface TestSystem {
  /** Where a service listens (known before it starts). */
  url(name: DomainServiceName): string;
  /** Settings every service gets: database, Redis, bus, secrets, every service's URL. */
  env: Record<string, string>;
  /** Starts a service from its definition with `env` over the common settings; replies are checked against their contracts. */
  start<S extends RunningService>(definition: ServiceDefinition<never, never, never>, env?: Record<string, string>): Promise<S>;
  /** Stops a running service and starts it again on the same port and database, with the same settings (and `env` over them, kept for later restarts). */
  restart<S extends RunningService>(name: DomainServiceName, env?: Record<string, string>): Promise<S>;
  running(name: DomainServiceName): RunningService | undefined;
  /** Starts one more process of a running service (another port and infrastructure, the same database and settings), as a second replica would run. */
  replica<S extends RunningService>(name: DomainServiceName): Promise<S & { url: string }>;
  /** The proxy in front of PostgreSQL, with `databaseProxy: true`. */
  databaseProxy?: TcpProxy;
  /**
   * An HTTP request to a service as the gateway forwards it: as an admin unless `headers` say
   * otherwise (`{}` is anonymous). Redirects are not followed.
   */
  call(name: DomainServiceName, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** Publishes an event on the bus, as a relay would. */
  publish(envelope: EventEnvelope): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Services as they run in production, for one test suite: each in its own PostgreSQL schema of a
 * fresh database, on Redis and on RabbitMQ in a fresh vhost (or the PostgreSQL bus), each on its
 * own port and knowing the others' URLs. Outside systems (simulators) are the suite's to start.
 */
export async function startTestSystem(name: string, options: TestSystemOptions): Promise<TestSystem> {
  const logger = options.logger ?? createLogger(name, 'silent');
  const database = await createTestDatabase(name);
  const direct = new URL(database.url);
  const databaseProxy = options.databaseProxy ? await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) }) : undefined;
  const databaseUrl = databaseProxy ? Object.assign(new URL(database.url), { port: String(databaseProxy.port) }).toString() : database.url;
  const vhost = options.transport === 'embedded' ? null : await createTestVhost(name);
  const embeddedBus = options.transport === 'embedded' ? await PgTransport.connect({ url: databaseUrl }) : null;
  const ports = Object.fromEntries(await Promise.all(options.services.map(async (service) => [service, await freePort()] as const))) as Record<DomainServiceName, number>;
  const url = (service: DomainServiceName) => `http://127.0.0.1:${ports[service]}`;
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: 'redis://127.0.0.1:6379',
    ...(vhost ? { AMQP_URL: vhost.url } : {}),
    // Each service gets its own private key at launch; every one knows every process's public key.
    IDENTITY_PUBLIC_KEYS: TEST_IDENTITY_PUBLIC_KEYS,
    DATA_ENCRYPTION_KEY: TEST_DATA_ENCRYPTION_KEY,
    QPAY_WEBHOOK_SECRET: TEST_QPAY_WEBHOOK_SECRET,
    LOG_LEVEL: 'silent',
    // The alert rules are evaluated by the tests themselves (RunningService.alerts), never by a tick between two of their steps.
    ALERT_CHECK_CRON: '0 0 1 1 *',
    ...Object.fromEntries(options.services.map((service) => [urlVariableOf(service), url(service)])),
  };
  const infrastructures: Infrastructure[] = [];
  const services = new Map<DomainServiceName, { running: RunningService; definition: ServiceDefinition<never, never, never>; env: Record<string, string> }>();
  const replicas: RunningService[] = [];
  // Replicas of one service share its cache key space (its counters and limits), as in production;
  // every test system has its own, so suites running side by side never meet in Redis.
  const systemId = randomUUID().slice(0, 8);

  const boot = async (definition: ServiceDefinition<never, never, never>, extra: Record<string, string>, port: number) => {
    const service = definition.name as DomainServiceName;
    const config = definition.configSchema.parse({ ...env, ...identityEnv(service), PORT: String(port), ...extra }) as never;
    const serviceLogger = options.logger ? options.logger.child({ service }) : logger;
    const infrastructure = embeddedBus
      ? await embeddedInfrastructure({ databaseUrl, transport: embeddedBus })
      : await connectInfrastructure(config, `${name}-${systemId}-${service}`, serviceLogger);
    infrastructures.push(infrastructure);
    const running = await definition.start({ config, logger: serviceLogger, infrastructure, checkReplies: true });
    await running.app.listen({ port, host: '127.0.0.1' });
    return running;
  };
  const launch = async (definition: ServiceDefinition<never, never, never>, extra: Record<string, string>) => {
    const service = definition.name as DomainServiceName;
    if (!(service in ports)) throw new Error(`${service} is not among this test system's services`);
    const running = await boot(definition, extra, ports[service]);
    services.set(service, { running, definition, env: extra });
    return running;
  };

  return {
    url,
    env,
    start: async (definition, extra = {}) => (await launch(definition, extra)) as never,
    async restart(service, changed = {}) {
      const entry = services.get(service);
      if (!entry) throw new Error(`${service} is not running`);
      await entry.running.stop();
      services.delete(service);
      return (await launch(entry.definition, { ...entry.env, ...changed })) as never;
    },
    running: (service) => services.get(service)?.running,
    databaseProxy,
    async replica(service) {
      const entry = services.get(service);
      if (!entry) throw new Error(`${service} is not running`);
      // The embedded bus takes one subscription per service per process: a replica needs a process (and so a bus) of its own.
      if (embeddedBus) throw new Error('replicas need the RabbitMQ transport');
      const port = await freePort();
      const running = await boot(entry.definition, entry.env, port);
      replicas.push(running);
      return Object.assign(running, { url: `http://127.0.0.1:${port}` }) as never;
    },
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
      for (const running of replicas) await running.stop();
      for (const { running } of [...services.values()].reverse()) await running.stop();
      for (const infrastructure of infrastructures) await infrastructure.close();
      await embeddedBus?.close();
      await vhost?.delete();
      await databaseProxy?.close();
      await database.drop();
    },
  };
}
