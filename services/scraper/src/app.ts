import { OutboundGuard } from '@bo/platform/outside';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import type { ScraperConfig } from './config';
import { scraperConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { registerMarketplaceRoutes } from './routes/marketplaces';
import { registerPricingSettingsRoutes } from './routes/pricing-settings';

/**
 * The scraper service (issue 22): marketplaces and their scrape configs, the exchange rate, the
 * global commission and the commission tiers. The scraping itself, its jobs and the products come
 * in the next parts of the issue.
 */
export async function buildScraperApp({ config, prisma }: ServiceContext<ScraperConfig, PrismaClient>): Promise<ServiceParts<undefined>> {
  // Every marketplace URL is checked where it would be fetched from: no loopback, private or metadata address.
  const guard = new OutboundGuard({ allow: config.SCRAPER_ALLOWED_HOSTS });
  return {
    routes(app) {
      registerPricingSettingsRoutes(app, prisma);
      registerMarketplaceRoutes(app, { prisma, guard });
    },
    configItems: () => scraperConfigItems(config),
  };
}
