import { randomUUID } from 'node:crypto';
import { createLogger, type ServiceEnv } from '@bo/platform';
import { PgTransport, type EventTransport } from '@bo/platform/events';
import { connectInfrastructure, embeddedInfrastructure, type Infrastructure } from '@bo/platform/runtime';
import type { RunningService } from '@bo/platform/service';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { identityEnv, TEST_IDENTITY_PUBLIC_KEYS } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import pricing from '@bo/pricing/service';
import { buildGoogleSheetsSimulator, defaultPriceList, PRICE_LIST_HEADER, PRICE_LIST_SPREADSHEET_ID, type GoogleSheetsSimulator, type QuotaLimits, type SpreadsheetSeed } from '@bo/sim-google-sheets';
import type { EventEnvelope } from '@bo/proto';
import { freePort, listen } from '@bo/sim-kit';
import { buildWooCommerceSimulator, defaultSeed, type SeedData } from '@bo/sim-woocommerce';
import type { ShopSyncExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import shopSync, { SIMULATOR_KEY } from '../src/service';

/** An admin's signed identity, as the gateway forwards it. */
export { asAdmin } from '@bo/platform/testing/services';

export interface ShopSystem {
  pricing: RunningService;
  shop: RunningService<PrismaClient, ShopSyncExposed>;
  sheets: GoogleSheetsSimulator;
  woo: ReturnType<typeof buildWooCommerceSimulator>;
  wooUrl: string;
  /** The price sheet's rows as the Sheets simulator holds them (header first). */
  sheetRows(): string[][];
  /** Publishes an event on the bus, as a relay would. */
  publish(envelope: EventEnvelope): Promise<void>;
  /** The bus the services use, to watch events on it as a consumer of one's own. */
  bus: EventTransport;
  /** Stops shop-sync (as a deploy or a crash-restart would) and starts it again on its port and database. */
  restartShop(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pricing and shop-sync as they run in production (PostgreSQL schemas, Redis, RabbitMQ, each on
 * its own port and knowing the other's URL), the Sheets simulator's price list and the
 * WooCommerce simulator's shop. `shop: false` leaves WooCommerce unconfigured.
 */
export interface ShopSystemOptions {
  /** false: no WooCommerce settings. */
  shop?: boolean;
  seed?: SeedData;
  waitMs?: number;
  spreadsheet?: SpreadsheetSeed;
  sheetsQuotas?: Partial<QuotaLimits>;
  /** The bus: RabbitMQ (the distributed run), or the embedded run's durable queue in PostgreSQL. */
  transport?: 'rabbitmq' | 'embedded';
}

export async function startShopSystem(name: string, options: ShopSystemOptions = {}): Promise<ShopSystem> {
  const logger = createLogger(name, 'silent');
  const testDb: TestDatabase = await createTestDatabase(name);
  const vhost: TestVhost = await createTestVhost(name);
  const sheets = buildGoogleSheetsSimulator({ spreadsheets: [options.spreadsheet ?? defaultPriceList()], quotas: options.sheetsQuotas });
  const sheetsUrl = await listen(sheets.simulator.app);
  const woo = buildWooCommerceSimulator({ seed: options.seed ?? defaultSeed() });
  const wooUrl = await listen(woo.app);
  const [pricingPort, shopPort] = [await freePort(), await freePort()];
  const common = { DATABASE_URL: testDb.url, REDIS_URL: 'redis://127.0.0.1:6379', AMQP_URL: vhost.url, IDENTITY_PUBLIC_KEYS: TEST_IDENTITY_PUBLIC_KEYS, LOG_LEVEL: 'silent' };
  const infrastructures: Infrastructure[] = [];
  const embeddedBus = options.transport === 'embedded' ? await PgTransport.connect({ url: testDb.url }) : null;
  const connect = (config: ServiceEnv) =>
    embeddedBus ? embeddedInfrastructure({ databaseUrl: testDb.url, transport: embeddedBus }) : connectInfrastructure(config, `${name}-${randomUUID()}`, logger);
  const started: RunningService[] = [];
  const start = async <S extends RunningService>(definition: { configSchema: { parse(input: unknown): unknown }; start(options: never): Promise<S> }, env: Record<string, string>, port: number) => {
    const config = definition.configSchema.parse(env) as { LOG_LEVEL: string };
    const infrastructure = await connect(config as never);
    infrastructures.push(infrastructure);
    const service = await definition.start({ config, logger, infrastructure, checkReplies: true } as never);
    started.push(service);
    await service.app.listen({ port, host: '127.0.0.1' });
    return service;
  };
  const pricingService = await start(pricing as never, {
    ...common,
    ...identityEnv('pricing'),
    PORT: String(pricingPort),
    GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID,
    GOOGLE_SHEETS_ROOT_URL: sheetsUrl,
    GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)),
    SHOP_SYNC_URL: `http://127.0.0.1:${shopPort}`,
    SHOP_SYNC_WAIT_MS: String(options.waitMs ?? 4_000),
    // A simulator given a larger quota: pricing paces itself to it, as to a project's raised quota.
    ...(options.sheetsQuotas?.readsPerMinutePerUser && { GOOGLE_SHEETS_QUOTA_PER_MINUTE: String(options.sheetsQuotas.readsPerMinutePerUser) }),
  }, pricingPort);
  const shopEnv: Record<string, string> = options.shop === false ? {} : { WOOCOMMERCE_URL: wooUrl, WOOCOMMERCE_CONSUMER_KEY: SIMULATOR_KEY.key, WOOCOMMERCE_CONSUMER_SECRET: SIMULATOR_KEY.secret, WOOCOMMERCE_TIMEOUT_MS: '2000' };
  const shopConfig = { ...common, ...identityEnv('shop-sync'), ...shopEnv, PORT: String(shopPort), PRICING_URL: `http://127.0.0.1:${pricingPort}` };
  const system: ShopSystem = {
    pricing: pricingService,
    shop: await start<RunningService<PrismaClient, ShopSyncExposed>>(shopSync as never, shopConfig, shopPort),
    sheets,
    woo,
    wooUrl,
    sheetRows: () => sheets.state.view(PRICE_LIST_SPREADSHEET_ID)!.sheets[0].rows as string[][],
    publish: (envelope) => infrastructures[0].transport.publish(envelope),
    bus: infrastructures[0].transport,
    async restartShop() {
      await system.shop.stop();
      started.splice(started.indexOf(system.shop), 1);
      system.shop = await start<RunningService<PrismaClient, ShopSyncExposed>>(shopSync as never, shopConfig, shopPort);
    },
    async stop() {
      for (const service of started.reverse()) await service.stop();
      for (const infrastructure of infrastructures) await infrastructure.close();
      await embeddedBus?.close();
      await sheets.simulator.app.close();
      await woo.app.close();
      await vhost.delete();
      await testDb.drop();
    },
  };
  return system;
}

/** A shop of `count` simple products (ids 101…) and a sheet listing them by id, with other prices. */
export function largeCatalogue(count: number) {
  const names = Array.from({ length: count }, (_, i) => `Gift card ${String(i + 1).padStart(4, '0')}`);
  return {
    seed: { products: names.map((name, i) => ({ name, type: 'simple', sku: `GC-${i + 1}`, regular_price: '10000' })), orders: [] },
    spreadsheet: {
      id: PRICE_LIST_SPREADSHEET_ID,
      title: 'Price list',
      sheets: [{ title: 'Sheet1', rows: [PRICE_LIST_HEADER, ...names.map((name, i) => ['simple', '', String(101 + i), name, `GC-${i + 1}`, String(11000 + i), '', 'publish', 'instock', '', 'Gift cards'])] }],
    },
  };
}
