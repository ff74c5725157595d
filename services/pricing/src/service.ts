import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@bo/platform';
import { createPrismaClient, migrate } from '@bo/platform/db';
import { OutboxRelay } from '@bo/platform/events';
import type { Infrastructure } from '@bo/platform/runtime';
import { buildPricingApp } from './app';
import { GoogleSheet, type ServiceAccountCredentials } from './clients/price-sheet';
import type { PricingConfig } from './config';
import { PrismaClient } from './generated/prisma/client';
import { PriceCatalog } from './price-catalog';
import { PRICING_SCHEMA, PrismaPriceSnapshotStore } from './store/pricing-store';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../prisma/migrations');

export interface PricingServiceDeps {
  config: PricingConfig;
  logger: Logger;
  infrastructure: Infrastructure;
  credentials: ServiceAccountCredentials;
  /** Validate replies against their contracts (tests). */
  checkReplies?: boolean;
}

/**
 * Everything the pricing service runs, wired the same way for the distributed main.ts and the
 * embedded launcher: migrations, the Prisma client, the outbox relay and the HTTP app.
 */
export async function createPricingService({ config, logger, infrastructure, credentials, checkReplies }: PricingServiceDeps) {
  await migrate(infrastructure.database, { schema: PRICING_SCHEMA, migrationsDir });
  const prisma = createPrismaClient(PrismaClient, infrastructure.database, PRICING_SCHEMA);
  const relay = new OutboxRelay({
    db: prisma,
    schema: PRICING_SCHEMA,
    transport: infrastructure.transport,
    log: (message, detail) => logger.warn(detail ?? {}, message),
  });
  const sheet = new GoogleSheet({
    spreadsheetId: config.GOOGLE_SHEETS_SPREADSHEET_ID,
    sheetName: config.GOOGLE_SHEETS_SHEET_NAME,
    credentials,
    rootUrl: config.GOOGLE_SHEETS_ROOT_URL,
  });
  const catalog = new PriceCatalog({
    sheet,
    cache: infrastructure.cache,
    snapshots: new PrismaPriceSnapshotStore(prisma, () => relay.nudge()),
    ttlSeconds: config.PRICE_CACHE_TTL_SECONDS,
    logger,
  });
  const app = buildPricingApp({ config, logger, catalog, transport: infrastructure.transport, readiness: infrastructure.readiness, checkReplies });
  relay.start();
  return {
    app,
    catalog,
    prisma,
    relay,
    async stop() {
      await app.close();
      await relay.stop();
      await prisma.$disconnect();
    },
  };
}
export type PricingService = Awaited<ReturnType<typeof createPricingService>>;

/** The key file from the environment, or (simulator only) fetched from the Sheets simulator. */
export async function resolveCredentials(config: PricingConfig): Promise<ServiceAccountCredentials> {
  if (config.GOOGLE_SERVICE_ACCOUNT_JSON) return config.GOOGLE_SERVICE_ACCOUNT_JSON;
  const url = config.GOOGLE_SERVICE_ACCOUNT_URL!;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not fetch the service-account key from ${url}: ${response.status}`);
  return (await response.json()) as ServiceAccountCredentials;
}
