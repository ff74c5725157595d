import type { ReadinessCheck } from './http/service-app';
import { currentService, type Logger } from './logging';
import { ConfigError, type ServiceEnv } from './config';
import { MemoryCache, MemoryLock, RedisCache, RedisLock, type Cache, type Lock } from './cache';
import { openDatabase, type Database } from './db';
import { RabbitMqTransport, type EventTransport } from './events';
import { processOutsideRateLimit, RedisOutsideRateLimit, type OutsideRateLimit } from './outside';
import { levelLogOf } from './state-log';

/**
 * What a service runs on. The distributed run connects to PostgreSQL, Redis and RabbitMQ from the
 * environment; the embedded launcher builds one PGlite, one memory cache and one memory transport
 * and hands the same objects to every service (they only work inside one process).
 */
export interface Infrastructure {
  database: Database;
  cache: Cache;
  lock: Lock;
  /** The pace of calls to each outside system, shared by every process that calls it. */
  outsideLimit: OutsideRateLimit;
  transport: EventTransport;
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * Connects a process of the distributed run to PostgreSQL, Redis and RabbitMQ. All three are
 * required: a process that silently used memory instead would lose events and split rate limits
 * between replicas, so a missing URL stops the start with a ConfigError naming it. (The embedded
 * launcher builds its in-process infrastructure itself; see embeddedInfrastructure.)
 */
export async function connectInfrastructure(env: ServiceEnv, service: string, logger: Logger): Promise<Infrastructure> {
  const missing = (['DATABASE_URL', 'REDIS_URL', 'AMQP_URL'] as const).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((name) => `${name} is required outside the embedded run (make start); without it this process would fall back to memory that other processes cannot see`));
  }
  const database = await openDatabase({ kind: 'postgres', url: env.DATABASE_URL! });
  const cache = RedisCache.connect(env.REDIS_URL!, `${service}:`);
  const lock = new RedisLock(cache.redis, `${service}:`);
  const transport = await RabbitMqTransport.connect({ url: env.AMQP_URL!, log: levelLogOf(logger) });
  return {
    database,
    cache,
    lock,
    outsideLimit: new RedisOutsideRateLimit(cache.redis),
    transport,
    readiness: [
      { name: 'database', check: () => pingDatabase(database) },
      { name: 'cache', check: () => cache.ping() },
    ],
    async close() {
      await transport.close();
      await cache.close();
      await database.close();
    },
  };
}

/**
 * One service's share of the embedded run: its own connection pool to the embedded PostgreSQL
 * (so one service's transactions cannot take another's connections), the shared event
 * transport, and a cache and locks of its own (two services using the same key never see each
 * other's values or locks).
 */
export async function embeddedInfrastructure(shared: { databaseUrl: string; transport: EventTransport }): Promise<Infrastructure> {
  const database = await openDatabase({ kind: 'postgres', url: shared.databaseUrl });
  const cache = new MemoryCache();
  return {
    database,
    transport: shared.transport,
    cache,
    lock: new MemoryLock(),
    outsideLimit: processOutsideRateLimit,
    readiness: [{ name: 'database', check: () => pingDatabase(database) }],
    // The transport belongs to the launcher, which closes it once after every service stopped.
    async close() {
      await cache.close();
      await database.close();
    },
  };
}

export async function pingDatabase(database: Database): Promise<void> {
  await database.pool.query('SELECT 1');
}

/** Stops the process cleanly on SIGINT/SIGTERM: `stop` runs once, then the process exits. */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    stop()
      .then(() => process.exit(0))
      .catch((error) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      });
  };
  // `on`, not `once`: a repeated signal (a terminal's Ctrl-C reaches a whole process group) must not cut the stop short.
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * The process's last line. An exception nobody caught, or a rejection nobody handled, leaves the
 * process in a state nobody knows (a transaction half-way, a consumer stopped): it is logged once,
 * at fatal, with its stack, the service and (through the logger's mixin) the correlation id of the
 * request or event it came from where known, and the process exits 1, so that whatever runs it
 * (the embedded launcher, `make start-distributed`, the container runtime) starts it again.
 */
export function exitOnUncaught(logger: Logger): void {
  const last = (origin: string) => (error: unknown) => {
    logger.fatal({ err: error, origin, service: currentService() ?? undefined }, `${origin}: the process exits for its supervisor to start it again`);
    process.exit(1);
  };
  process.on('uncaughtException', last('uncaught exception'));
  process.on('unhandledRejection', last('unhandled rejection'));
}

/**
 * Runs a process's start-up; a bad configuration prints its lines (no stack) and exits 1, and
 * any other start-up failure is printed with its cause.
 */
export function runMain(start: () => Promise<void>): void {
  start().catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else console.error('start-up failed:', error);
    process.exit(1);
  });
}
