import type { ReadinessCheck } from './http/service-app';
import type { Logger } from './logging';
import { ConfigError, type ServiceEnv } from './config';
import { MemoryCache, MemoryLock, RedisCache, RedisLock, type Cache, type Lock } from './cache';
import { openDatabase, type Database } from './db';
import { MemoryTransport, RabbitMqTransport, type EventTransport } from './events';

/**
 * What a service runs on. The distributed run connects to PostgreSQL, Redis and RabbitMQ from the
 * environment; the embedded launcher builds one PGlite, one memory cache and one memory transport
 * and hands the same objects to every service (they only work inside one process).
 */
export interface Infrastructure {
  database: Database;
  cache: Cache;
  lock: Lock;
  transport: EventTransport;
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

/** Connects what the environment names; anything absent falls back to its in-process form. */
export async function connectInfrastructure(env: ServiceEnv, service: string, logger: Logger): Promise<Infrastructure> {
  const database = await openDatabase(
    env.DATABASE_URL ? { kind: 'postgres', url: env.DATABASE_URL } : { kind: 'pglite', dataDir: env.PGLITE_DIR ?? null },
  );
  const cache = env.REDIS_URL ? RedisCache.connect(env.REDIS_URL, `${service}:`) : new MemoryCache();
  const lock = cache instanceof RedisCache ? new RedisLock(cache.redis, `${service}:`) : new MemoryLock();
  const transport = env.AMQP_URL
    ? await RabbitMqTransport.connect({ url: env.AMQP_URL, log: (message, detail) => logger.warn(detail ?? {}, message) })
    : new MemoryTransport();
  return {
    database,
    cache,
    lock,
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

export async function pingDatabase(database: Database): Promise<void> {
  if (database.kind === 'postgres') await database.pool.query('SELECT 1');
  else await database.pglite.query('SELECT 1');
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
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
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
