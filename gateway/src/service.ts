import { fileURLToPath } from 'node:url';
import type { Logger } from '@bo/platform';
import { RedisCache } from '@bo/platform/cache';
import { createPrismaClient, migrate } from '@bo/platform/db';
import type { Infrastructure } from '@bo/platform/runtime';
import { buildGateway } from './app';
import { MemoryAttemptCounter, RedisAttemptCounter } from './clients/attempt-counter';
import type { GatewayConfig } from './config';
import { PrismaClient } from './generated/prisma/client';
import { GATEWAY_SCHEMA } from './store/schema';

const migrationsDir = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

/** The gateway wired the same way for main.ts (distributed) and the embedded launcher. */
export async function createGatewayService({ config, logger, infrastructure }: { config: GatewayConfig; logger: Logger; infrastructure: Infrastructure }) {
  await migrate(infrastructure.database, { schema: GATEWAY_SCHEMA, migrationsDir });
  const prisma = createPrismaClient(PrismaClient, infrastructure.database, GATEWAY_SCHEMA);
  const { cache } = infrastructure;
  const app = await buildGateway({
    config,
    logger,
    prisma,
    // Sign-in attempts are counted where every replica sees them: Redis when distributed.
    attempts: cache instanceof RedisCache ? new RedisAttemptCounter(cache.redis, 'gateway:') : new MemoryAttemptCounter(),
    readiness: infrastructure.readiness,
  });
  return {
    app,
    prisma,
    async stop() {
      await app.close();
      await prisma.$disconnect();
    },
  };
}
