import { ServiceClient } from '@bo/platform';
import type { OutsideEffect } from '@bo/platform/events';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { PriceSheetClient } from './clients/price-sheet';
import { WooCommerceClient, wooCommerceSystem } from './clients/woocommerce';
import { shopSettings, type ShopSyncConfig } from './config';
import { shopSyncConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { DecisionSignal, PricePushes } from './operations/price-pushes';
import { SyncRunner } from './operations/sync-all';
import { registerListingRoutes } from './routes/listings';
import { registerMappingRoutes } from './routes/mappings';
import { registerOrderRoutes } from './routes/orders';
import { registerPricePushRoutes } from './routes/price-pushes';
import { registerShopRoutes } from './routes/shop';
import { registerSyncRoutes } from './routes/sync';

export interface ShopSyncExposed {
  pushes: PricePushes;
  shop: WooCommerceClient | null;
}

/**
 * The shop-sync service's parts: the WooCommerce client (none when no shop is configured), the
 * sheet through pricing, price pushes (consumer of pricing.price.updated and its outside effect),
 * the sync of everything (a platform run), the scraper's variations in the shop, and the routes.
 */
export async function buildShopSyncApp({ config, logger, signer, prisma, effects, outside, runs }: ServiceContext<ShopSyncConfig, PrismaClient>): Promise<ServiceParts<ShopSyncExposed>> {
  const settings = shopSettings(config);
  const shop = settings ? new WooCommerceClient(outside(wooCommerceSystem(settings)), settings) : null;
  const sheet = new PriceSheetClient(new ServiceClient({ baseUrl: config.PRICING_URL, signer }));
  const pushes = new PricePushes({ prisma, shop, signal: new DecisionSignal() });
  const runner = new SyncRunner({ prisma, shop, sheet, pushes, runs, batchSize: config.WOOCOMMERCE_BATCH_SIZE, logger });
  const deps = { prisma, shop, sheet };
  return {
    routes(app) {
      registerShopRoutes(app, deps);
      registerMappingRoutes(app, deps);
      registerSyncRoutes(app, { ...deps, runner, runs });
      registerOrderRoutes(app, deps);
      registerPricePushRoutes(app, { prisma, pushes });
      registerListingRoutes(app, deps);
    },
    runs: [runner.kind],
    consumers: [pushes.consumer(effects)],
    outsideEffects: [pushes.effect as OutsideEffect<never>],
    configItems: () => shopSyncConfigItems(config),
    exposed: { pushes, shop },
  };
}
