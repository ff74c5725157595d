import type { ConfigItem, DomainServiceName, ServiceName } from '@bo/proto';
import { schemaOf } from '@bo/proto';
import type { z } from 'zod';
import { createPrismaClient, migrate, type PrismaClientClass } from '../db';
import { eventTopology, runProgressEventOf } from '@bo/proto';
import {
  createOutbox,
  eventsReadinessCheck,
  OutboxRelay,
  registerEventMetrics,
  subscribe,
  sweepMessaging,
  type EventHandler,
  type Outbox,
  type OutsideEffect,
  OutsideEffects,
  type SqlClient,
  type TransactionalDb,
} from '../events';
import { createMetrics } from '../http/metrics';
import { createServiceApp, type ServiceApp } from '../http/service-app';
import { identityKeysOf, type IdentitySigner } from '../identity';
import { registerPlatformRoutes } from '../http/platform-routes';
import type { Logger } from '../logging';
import { levelLogOf } from '../state-log';
import { OutsideSystem, outsideBreakers, type OutsideOptions } from '../outside';
import { AuditLog, registerAuditRoutes } from '../audit';
import { registerMigrationRoutes, type ExportPolicy } from '../migration-export';
import { Alerts, BreakerReporter, breakerOpenRule, deadLettersRule, registerAlertRoutes, sweepAlerts, type AlertRule } from '../alerts';
import type { Infrastructure } from '../runtime';
import { registerRunListRoutes, registerRunRoutes, runKind, Runs, schedule, Scheduler, type RunKind, type Schedule } from '../runs';

/** Sent outbox rows, old inbox rows and finished runs are swept hourly (retention: events/operations.ts). */
const SWEEP_MESSAGING = '7 * * * *';
/** How long a finished run stays listed. */
const RUN_RETENTION_DAYS = 30;

/** The outside systems' stand-ins, by name, as the launchers started them (see simulatorEnv). */
/** Each simulator's HTTP address; `mailboxImap` is the mailbox simulator's IMAP server (imap://host:port), '' when it is not running. */
export type SimulatorUrls = Record<'sheets' | 'oidc' | 'woocommerce' | 'qpay' | 'manychat' | 'openai' | 'marketplace' | 'mailbox' | 'mailboxImap', string>;

/** What a service's build step gets: its validated config, its own database client and the shared runtime. */
export interface ServiceContext<Config, Prisma> {
  config: Config;
  logger: Logger;
  /** Signs this service's own identity into its calls to other services (ServiceClient's `signer`). */
  signer: IdentitySigner;
  infrastructure: Infrastructure;
  prisma: Prisma;
  /** Commits a business change with the events it emits, then nudges the relay (see events/README.md). */
  outbox: Outbox<PrismaTransaction<Prisma>>;
  /** Records an outside call in a consumer's transaction; it runs after the commit, once (see events/README.md). */
  effects: OutsideEffects;
  /** The client of one outside HTTP system, on this service's /metrics and the shared pace (docs/background-work.md). */
  outside: (options: OutsideOptions) => OutsideSystem;
  /** Starts and follows the service's background runs (its kinds are the parts' `runs`). */
  runs: Runs;
}


/** The interactive transaction client of a generated Prisma client. */
export type PrismaTransaction<Prisma> = Prisma extends { $transaction(fn: (tx: infer Tx) => Promise<unknown>): Promise<unknown> } ? (Tx extends SqlClient ? Tx : SqlClient) : SqlClient;

/** What a service is made of once built: its routes, consumers, jobs and config-status items. */
export interface ServiceParts<Exposed> {
  /** Registers the handlers of the service's route contracts (serveRoute). */
  routes(app: ServiceApp): void;
  /** The events it consumes (one subscription, through the inbox). */
  consumers?: EventHandler<never>[];
  /** The outside calls (a shop update, a chat message) its consumers record; each runs after commit, with retries. */
  outsideEffects?: OutsideEffect<never>[];
  /** The kinds of background run it does (docs/background-work.md): durable, resumable, cancellable. */
  runs?: RunKind<never>[];
  /** Runs started on a cron expression; each tick starts one run, on one replica. Their kinds need not be in `runs`. */
  schedules?: Schedule[];
  /** Its alert rules (docs/alerts.md), beside the ones every service has (dead letters, outside systems failing). */
  alerts?: AlertRule[];
  /** What the config-status page shows for this service. */
  configItems(): ConfigItem[] | Promise<ConfigItem[]>;
  /** Its tables that stay out of a database export and the secret columns that never leave (docs/database-export.md). */
  dataExport?: ExportPolicy;
  /** Objects tests and the launchers may reach (e.g. the price catalog). */
  exposed?: Exposed;
  /** Releases what build() opened, after the app stopped taking requests. */
  stop?(): Promise<void>;
}

export interface RunningService<Prisma = unknown, Exposed = unknown> {
  name: ServiceName;
  app: ServiceApp;
  prisma: Prisma;
  relay: OutboxRelay | null;
  /** Its alerts (evaluate() is what the schedule runs each minute). */
  alerts: Alerts | null;
  exposed: Exposed;
  /** Stops taking requests, lets in-flight work finish, then stops consumers, jobs and the relay. */
  stop(): Promise<void>;
}

export interface StartOptions<Config> {
  config: Config;
  logger: Logger;
  infrastructure: Infrastructure;
  /** Validate replies against their contracts (tests). */
  checkReplies?: boolean;
}

/**
 * A deployable process as the launchers see it: its registry name, its environment schema, how
 * it points at the simulators when no real outside system is configured, and how it starts.
 */
/**
 * What the deploy files (compose, Kubernetes) need to know of a service beyond what every process
 * has: example settings of a real deployment, and its own secrets with placeholder values. A
 * service is given only its own secrets.
 */
export interface DeploymentSettings {
  settings: Record<string, string>;
  secrets: Record<string, string>;
  /** The container's memory request and limit when not the common 192Mi and 512Mi (the scraper's carries Chromium). */
  memory?: { request: string; limit: string };
}

/**
 * A column of the service's own tables whose values are sealed with its data encryption key
 * (SecretBox). Declared once in the definition, so `make rotate-data-key` re-seals it.
 */
export interface SealedColumn {
  table: string;
  column: string;
}

export interface ServiceDefinition<Config = unknown, Prisma = unknown, Exposed = unknown> {
  name: ServiceName;
  configSchema: z.ZodType<Config>;
  /** The variables that point this service at the simulators (embedded run, distributed run on one machine, compose). */
  simulatorEnv(simulators: SimulatorUrls): Record<string, string>;
  deployment: DeploymentSettings;
  /** Columns sealed with DATA_ENCRYPTION_KEY (none by default). */
  sealedColumns?: readonly SealedColumn[];
  /** The Dockerfile stage its image is built from, when not the common one (the scraper's carries Chromium). */
  imageTarget?: string;
  /** Options of `node` its process runs with wherever it runs alone (containers, the distributed run), e.g. a heap size. */
  nodeOptions?: readonly string[];
  start(options: StartOptions<Config>): Promise<RunningService<Prisma, Exposed>>;
}

export interface DomainServiceSpec<Config, Prisma, Exposed> {
  name: DomainServiceName;
  configSchema: z.ZodType<Config>;
  /** The generated Prisma client class and the service's prisma/migrations folder. */
  prisma: new (options: never) => Prisma;
  migrationsDir: string;
  simulatorEnv(simulators: SimulatorUrls): Record<string, string>;
  deployment: DeploymentSettings;
  /** Every column of its tables that holds a sealed value: one line each, e.g. `{ table: 'qpay_settings', column: 'qpay_client_secret' }`. */
  sealedColumns?: readonly SealedColumn[];
  /** The Dockerfile stage its image is built from, when not the common one (the scraper's carries Chromium). */
  imageTarget?: string;
  /** Options of `node` its process runs with wherever it runs alone (containers, the distributed run), e.g. a heap size. */
  nodeOptions?: readonly string[];
  /** Runs one process works on at once (2): the scraper's pages in parallel per worker are its setting. */
  runConcurrency?(config: Config): number;
  build(context: ServiceContext<Config, Prisma>): Promise<ServiceParts<Exposed>>;
}

/**
 * Defines a domain service once. Starting it does, in this order and the same way in every run
 * mode: apply its migrations to its own schema, open its Prisma client, start its outbox relay,
 * build its parts, serve its contracts (and the platform's: config status, dead letters),
 * subscribe its consumers, start its runs and schedules.
 */
export function defineService<Config extends { IDENTITY_PRIVATE_KEY: string; IDENTITY_PUBLIC_KEYS: string; ALERT_CHECK_CRON: string }, Prisma, Exposed = undefined>(
  spec: DomainServiceSpec<Config, Prisma, Exposed>,
): ServiceDefinition<Config, Prisma, Exposed> {
  const schema = schemaOf(spec.name);
  return {
    name: spec.name,
    configSchema: spec.configSchema,
    simulatorEnv: spec.simulatorEnv,
    deployment: spec.deployment,
    sealedColumns: spec.sealedColumns ?? [],
    imageTarget: spec.imageTarget,
    nodeOptions: spec.nodeOptions,
    async start({ config, logger, infrastructure, checkReplies }) {
      // First: a key that does not match IDENTITY_PUBLIC_KEYS stops the start before anything is touched.
      const identity = identityKeysOf(spec.name, config);
      await migrate(infrastructure.database, { schema, migrationsDir: spec.migrationsDir, platformMigrations: true });
      const prisma = createPrismaClient(spec.prisma as unknown as PrismaClientClass<Prisma>, infrastructure.database, schema);
      const sql = prisma as unknown as TransactionalDb<PrismaTransaction<Prisma>> & { $disconnect(): Promise<void> };
      const { transport } = infrastructure;
      // Every queue and binding of the topology, so no event waits unroutable for its consumer's first start.
      await transport.declareTopology(eventTopology);
      // A run's progress is published for whoever listens (the design's "scrape progress"); sent when nobody does.
      const progressEvent = runProgressEventOf(spec.name).name;
      const relay = new OutboxRelay({ db: sql, schema, transport, mayGoUnheard: (name) => name === progressEvent, log: levelLogOf(logger) });
      const outbox = createOutbox({ db: sql, schema, relay });
      const effects = new OutsideEffects({ db: sql, schema, effects: [], log: levelLogOf(logger) });
      const metrics = createMetrics(spec.name);
      const outside = (options: OutsideOptions) => new OutsideSystem({ ...options, registry: metrics.registry, paces: infrastructure.outsideLimit });
      const runs = new Runs({ service: spec.name, schema, db: sql, outbox, logger, concurrency: spec.runConcurrency?.(config) });
      const parts = await spec.build({ config, logger, signer: identity.signer, infrastructure, prisma, outbox, effects, outside, runs });
      effects.register(parts.outsideEffects ?? []);
      const app = createServiceApp({
        service: spec.name,
        logger,
        metrics,
        verifier: identity.verifier,
        readiness: [...infrastructure.readiness, eventsReadinessCheck(transport)],
        checkReplies,
      });
      registerEventMetrics(app.metrics.registry, { service: spec.name, schema, db: sql, transport });
      registerPlatformRoutes(app, { service: spec.name, schema, db: sql, transport, configItems: parts.configItems });
      const scheduler = new Scheduler({ service: spec.name, schema, db: sql, runs, logger });
      registerRunRoutes(app, { service: spec.name, runs });
      registerRunListRoutes(app, { service: spec.name, runs, scheduler });
      parts.routes(app);
      const subscription = parts.consumers?.length
        ? await subscribe({ service: spec.name, schema, db: sql, transport, events: parts.consumers as EventHandler<PrismaTransaction<Prisma>>[], afterCommit: () => {
              relay.nudge();
              effects.nudge();
            },
          })
        : null;
      const sweep = schedule(
        'sweep-messaging',
        SWEEP_MESSAGING,
        runKind('sweep-messaging', async () => ({ ...(await sweepMessaging(sql, schema)), runs: await runs.sweep(RUN_RETENTION_DAYS), ...(await sweepAlerts(sql, schema)) }), { exclusive: true }),
      );
      const alerts = new Alerts({ service: spec.name, schema, db: sql, logger, outbox });
      alerts.register([...(parts.alerts ?? []), deadLettersRule(spec.name, transport), breakerOpenRule({ schema, db: sql })]);
      registerAlertRoutes(app, { service: spec.name, alerts });
      registerAuditRoutes(app, { service: spec.name, auditLog: new AuditLog({ service: spec.name, schema, db: sql }) });
      registerMigrationRoutes(app, { service: spec.name, schema, database: infrastructure.database, policy: parts.dataExport ?? {} });
      const breakerReports = new BreakerReporter({ schema, db: sql, owner: runs.owner, breakers: outsideBreakers(metrics.registry), logger });
      const alertCheck = schedule('alert-check', config.ALERT_CHECK_CRON, runKind('alert-check', () => alerts.evaluate(), { exclusive: true }));
      const schedules = [...(parts.schedules ?? []), sweep, alertCheck];
      runs.register(uniqueKinds([...(parts.runs ?? []), ...schedules.map((entry) => entry.run)]));
      relay.start();
      effects.start();
      runs.start();
      breakerReports.start();
      await scheduler.start(schedules);
      return {
        name: spec.name,
        app,
        prisma,
        relay,
        alerts,
        exposed: parts.exposed as Exposed,
        async stop() {
          await app.close();
          await subscription?.stop();
          await scheduler.stop();
          await runs.stop();
          await breakerReports.stop();
          await effects.stop();
          await relay.stop();
          await parts.stop?.();
          await sql.$disconnect();
        },
      };
    },
  };
}

/** Each kind once (a schedule's kind may also be started by hand, so it is listed in both). */
function uniqueKinds(kinds: RunKind<never>[]): RunKind<never>[] {
  return [...new Map(kinds.map((kind) => [kind.kind, kind])).values()];
}
