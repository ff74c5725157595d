import { createLogger } from '@bo/platform';
import { RedisCache } from '@bo/platform/cache';
import { createPrismaClient, migrate, openDatabase } from '@bo/platform/db';
import { fileURLToPath } from 'node:url';
import { buildGateway } from './app';
import { MemoryAttemptCounter, RedisAttemptCounter } from './clients/attempt-counter';
import { loadGatewayConfig } from './config';
import { PrismaClient } from './generated/prisma/client';
import { GATEWAY_SCHEMA } from './store/schema';

const config = loadGatewayConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);
const database = await openDatabase(config.DATABASE_URL ? { kind: 'postgres', url: config.DATABASE_URL } : { kind: 'pglite', dataDir: config.PGLITE_DIR ?? null });
await migrate(database, { schema: GATEWAY_SCHEMA, migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
const prisma = createPrismaClient(PrismaClient, database, GATEWAY_SCHEMA);
const redis = config.REDIS_URL ? RedisCache.connect(config.REDIS_URL, 'gateway:') : null;
const app = await buildGateway({
  config,
  logger,
  prisma,
  attempts: redis ? new RedisAttemptCounter(redis.redis, 'gateway:') : new MemoryAttemptCounter(),
  readiness: [
    { name: 'database', check: async () => void (await prisma.$queryRawUnsafe('SELECT 1')) },
    ...(redis ? [{ name: 'redis', check: () => redis.ping() }] : []),
  ],
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    await app.close();
    await prisma.$disconnect();
    await redis?.close();
    await database.close();
    process.exit(0);
  });
}
await app.listen({ host: config.HOST, port: config.PORT });
