import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger, levelLogOf, type LogFormat } from '@bo/platform';
import { PgTransport } from '@bo/platform/events';
import { embeddedInfrastructure } from '@bo/platform/runtime';
import { loadServiceDefinition } from '@bo/platform/service';
import { domainServiceNames, urlVariableOf, type DomainServiceName } from '@bo/proto';
import { freePort } from '@bo/sim-kit';
import { configureChatFlow, type ChatWebhookSecret } from './chat-flow';
import { startEmbeddedPostgres } from './postgres';
import { dataEncryptionEnvOf, identityEnvOf, loadOrCreateSecrets, serviceSecretsEnvOf } from './secrets';
import { startSimulators, type RunningSimulators } from './simulators';
import { startAll } from './start-all';

export interface EmbeddedOptions {
  /** Where the database, the simulators' state and the generated secrets live. */
  dataDir?: string;
  /** The gateway's port; 0 picks a free one. */
  port?: number;
  /** Where the gateway listens: `localhost` (this machine only) unless told, e.g. `0.0.0.0` for a LAN. */
  host?: string;
  /** The address browsers use (cookies, CSRF origin, sign-in redirect); `http://localhost:<port>` unless told. */
  publicUrl?: string;
  /** Simulators listen on this port and the next ones (stable URLs for people); 0 picks free ports. */
  simulatorBasePort?: number;
  /** Administrators at OIDC sign-in. */
  adminEmails?: string[];
  quiet?: boolean;
  /** How logs are written: `pretty` one-line entries for a person at a terminal, else JSON lines. */
  logFormat?: LogFormat;
  /** Settings a service gets over its simulator defaults, e.g. `{ 'shop-sync': { WOOCOMMERCE_URL: '' } }` for a run without a shop. */
  environment?: Partial<Record<DomainServiceName, Record<string, string>>>;
}

export interface EmbeddedSystem {
  url: string;
  dataDir: string;
  /** The embedded PostgreSQL (operators' tools, tests). */
  databaseUrl: string;
  /** Where each domain service listens (on 127.0.0.1), for tests that call a service directly. */
  serviceUrls: Record<DomainServiceName, string>;
  adminEmails: string[];
  simulators: RunningSimulators['running'];
  /** Simulators that could not start, with the reason and the fix. */
  unavailable: RunningSimulators['unavailable'];
  stop(): Promise<void>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The whole system in one process: the simulators and one embedded PostgreSQL, one event
 * transport shared by every service (each with its own pool, cache and locks), every service of
 * the registry at once, and the gateway in front.
 */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedSystem> {
  const dataDir = path.resolve(options.dataDir ?? path.join(repoRoot, 'data'));
  const adminEmails = options.adminEmails ?? ['admin@example.com'];
  await mkdir(dataDir, { recursive: true });
  const logFormat = options.logFormat ?? 'json';
  const logger = createLogger('embedded', options.quiet ? 'silent' : 'info', logFormat);
  const secrets = await loadOrCreateSecrets(dataDir);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of stops.reverse()) await close().catch((error) => logger.error({ err: error }, 'stop step failed'));
  };

  try {
    const port = options.port || (await freePort());
    const publicUrl = (options.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');

    // The simulators and the database at once: neither needs the other.
    const [simulators, postgres] = await startAll([
      startSimulators({ dataDir, basePort: options.simulatorBasePort ?? 0, publicUrl, oidcClientSecret: secrets.oidcClientSecret }).then((started) => {
        stops.push(() => started.stop());
        return started;
      }),
      startEmbeddedPostgres(path.join(dataDir, 'postgres'), (line) => logger.debug({ postgres: line })).then((started) => {
        stops.push(() => started.stop());
        return started;
      }),
    ] as const);
    // The durable bus in the same PostgreSQL: an event is gone from it only once its consumer committed.
    const transport = await PgTransport.connect({ url: postgres.url, log: levelLogOf(logger) });
    stops.push(() => transport.close());
    // Each service gets its own pool, cache and locks over the shared server and transport.
    const infrastructureFor = async () => {
      const infrastructure = await embeddedInfrastructure({ databaseUrl: postgres.url, transport });
      stops.push(() => infrastructure.close());
      return infrastructure;
    };

    const common = {
      ...dataEncryptionEnvOf(secrets),
      PUBLIC_URL: publicUrl,
      LOG_LEVEL: options.quiet ? 'silent' : 'warn',
    };
    // Every domain service of the registry, started the way its definition says, on a free port.
    // The ports are chosen first, so each service knows every other's URL (services call each other).
    const ports = Object.fromEntries(await Promise.all(domainServiceNames.map(async (name) => [name, await freePort()] as const)));
    const serviceUrls = Object.fromEntries(domainServiceNames.map((name) => [urlVariableOf(name), `http://127.0.0.1:${ports[name]}`]));
    // All at once: a service's start is mostly its migrations' round trips, which overlap.
    const started = await startAll(
      domainServiceNames.map(async (name) => {
        const definition = await loadServiceDefinition(name);
        const config = definition.configSchema.parse({ ...common, ...serviceSecretsEnvOf(secrets, name), ...serviceUrls, PORT: String(ports[name]), ...definition.simulatorEnv(simulators.urls), ...options.environment?.[name] });
        const service = await definition.start({ config, logger: createLogger(name, (config as { LOG_LEVEL: string }).LOG_LEVEL, logFormat), infrastructure: await infrastructureFor() });
        stops.push(() => service.stop());
        await service.app.listen({ port: ports[name], host: '127.0.0.1' });
        return { name, service };
      }),
    );
    const payments = started.find(({ name }) => name === 'payments')?.service.exposed as { webhookSecret: ChatWebhookSecret } | undefined;
    const webhookSecret = payments?.webhookSecret ?? null;

    // The ManyChat simulator's chat and payment steps send payments' current secret, and the next one after each Rotate on /qpay.
    const manychatUrl = simulators.urls.manychat;
    if (manychatUrl && webhookSecret) {
      await configureChatFlow(manychatUrl, publicUrl, await webhookSecret.current());
      const unsubscribe = webhookSecret.onRotate((secret) =>
        configureChatFlow(manychatUrl, publicUrl, secret).catch((error) => logger.error({ err: error }, 'the ManyChat simulator did not take the new webhook secret')),
      );
      stops.push(async () => unsubscribe());
    }

    const gateway = await loadServiceDefinition('gateway');
    const gatewayConfig = gateway.configSchema.parse({
      ...common,
      ...identityEnvOf(secrets, 'gateway'),
      ...gateway.simulatorEnv(simulators.urls),
      ...serviceUrls,
      PORT: String(port),
      OPS_PORT: '0',
      PUBLIC_URL: publicUrl,
      SESSION_SECRET: secrets.sessionSecret,
      OIDC_CLIENT_SECRET: secrets.oidcClientSecret,
      ADMIN_EMAILS: adminEmails.join(','),
      WEB_DIST_DIR: path.join(repoRoot, 'web/dist'),
    }) as { LOG_LEVEL: string };
    const running = await gateway.start({ config: gatewayConfig, logger: createLogger('gateway', gatewayConfig.LOG_LEVEL, logFormat), infrastructure: await infrastructureFor() });
    stops.push(() => running.stop());
    await running.app.listen({ port, host: options.host ?? 'localhost' });

    return {
      url: publicUrl,
      dataDir,
      databaseUrl: postgres.url,
      serviceUrls: Object.fromEntries(domainServiceNames.map((name) => [name, `http://127.0.0.1:${ports[name]}`])) as Record<DomainServiceName, string>,
      adminEmails,
      simulators: simulators.running,
      unavailable: simulators.unavailable,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
