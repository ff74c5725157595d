import { withoutAudit } from '@bo/platform/audit';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { GoogleSheet, googleSheetsSystem } from './clients/price-sheet';
import type { PricingConfig } from './config';
import { pricingConfigItems } from './config-status';
import { PriceCatalog } from './domain/price-catalog';
import type { PrismaClient } from './generated/prisma/client';
import { registerCacheRoutes } from './routes/cache';
import { registerPriceRoutes } from './routes/prices';
import { registerSheetRoutes } from './routes/sheets';
import { priceUpdatedEvent, priceUpdatedPayload } from './events/price-updated';
import { pricingStore } from './store/pricing-store';
import { resolveCredentials } from './clients/service-account';
import { ShopSyncOutcomes } from './clients/shop-sync-outcomes';
import { ServiceClient } from '@bo/platform';

export interface PricingExposed {
  catalog: PriceCatalog;
}

/**
 * The pricing service's parts from its injected dependencies: the sheet client, the catalog over
 * the cache and the last good copy, and the routes, and the shop outcome of each edit (asked of shop-sync). It consumes no events and has no jobs.
 */
export async function buildPricingApp({ config, logger, signer, infrastructure, prisma, outbox, outside }: ServiceContext<PricingConfig, PrismaClient>): Promise<ServiceParts<PricingExposed>> {
  const sheet = new GoogleSheet(
    {
      spreadsheetId: config.GOOGLE_SHEETS_SPREADSHEET_ID,
      sheetName: config.GOOGLE_SHEETS_SHEET_NAME,
      credentials: await resolveCredentials(config, outside),
      rootUrl: config.GOOGLE_SHEETS_ROOT_URL,
      quotaPerMinute: config.GOOGLE_SHEETS_QUOTA_PER_MINUTE,
    },
    outside(googleSheetsSystem(config.GOOGLE_SHEETS_ROOT_URL)),
  );
  const catalog = new PriceCatalog({
    sheet,
    cache: infrastructure.cache,
    snapshots: {
      load: () => pricingStore.loadCopy(prisma),
      // The copy refreshed from the sheet is not an admin's edit, even when an admin's request refreshed it.
      replaceAll: (rows) => withoutAudit(() => prisma.$transaction((tx) => pricingStore.replaceCopy(tx, rows))),
      // The edit, the product's revision and its event commit together; the relay publishes after.
      recordEdit: (row, previous) =>
        outbox.commit(async (tx, emit) => {
          const revision = await pricingStore.saveEdit(tx, row, previous);
          return emit(priceUpdatedEvent, priceUpdatedPayload(row, previous, revision)).id;
        }),
    },
    ttlSeconds: config.PRICE_CACHE_TTL_SECONDS,
    logger,
  });
  const shopOutcomes = new ShopSyncOutcomes({
    shopSync: config.SHOP_SYNC_URL ? new ServiceClient({ baseUrl: config.SHOP_SYNC_URL, signer }) : null,
    waitMs: config.SHOP_SYNC_WAIT_MS,
    logger,
  });
  return {
    routes(app) {
      registerPriceRoutes(app, catalog, shopOutcomes);
      registerSheetRoutes(app, catalog, shopOutcomes);
      registerCacheRoutes(app, catalog);
    },
    configItems: () => pricingConfigItems(config),
    // The price list is the Google Sheet; this copy of it is refilled from the sheet at the first read, under new ids.
    dataExport: { skip: ['pricing_data'] },
    exposed: { catalog },
  };
}
