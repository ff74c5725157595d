import { createServiceApp, type Logger, type ReadinessCheck } from '@bo/platform';
import type { EventTransport } from '@bo/platform/events';
import { registerPlatformRoutes } from '@bo/platform/http/platform-routes';
import type { PricingConfig } from './config';
import type { PriceCatalog } from './price-catalog';
import { registerCacheRoutes } from './routes/cache';
import { pricingConfigItems } from './config-status';
import { registerPriceRoutes } from './routes/prices';
import { registerSheetRoutes } from './routes/sheets';

export interface PricingAppDeps {
  config: PricingConfig;
  logger: Logger;
  catalog: PriceCatalog;
  transport: EventTransport;
  readiness: ReadinessCheck[];
  checkReplies?: boolean;
}

/** The pricing service's HTTP surface; every dependency is injected so tests and both run modes share it. */
export function buildPricingApp(deps: PricingAppDeps) {
  const app = createServiceApp({
    service: 'pricing',
    logger: deps.logger,
    identitySecret: deps.config.INTERNAL_IDENTITY_SECRET,
    readiness: deps.readiness,
    checkReplies: deps.checkReplies,
  });
  registerPriceRoutes(app, deps.catalog);
  registerSheetRoutes(app, deps.catalog);
  registerCacheRoutes(app, deps.catalog);
  registerPlatformRoutes(app, { service: 'pricing', transport: deps.transport, configItems: () => pricingConfigItems(deps.config) });
  return app;
}
