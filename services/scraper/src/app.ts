import { ServiceClient } from '@bo/platform';
import { OutboundGuard } from '@bo/platform/outside';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { scraperAlertRules } from './alerts';
import type { ScraperConfig } from './config';
import { scraperConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { Publishing } from './operations/publishing';
import { ScrapeJobs } from './operations/scrape-jobs';
import { registerJobRoutes } from './routes/jobs';
import { registerMarketplaceRoutes } from './routes/marketplaces';
import { registerPricingSettingsRoutes } from './routes/pricing-settings';
import { registerProductRoutes } from './routes/products';
import { registerPublishingRoutes } from './routes/publishing';
import { BrowserHolder } from './scraping/browser';
import { ListingReader } from './scraping/listing-reader';

/** A marketplace page's tries: the first and three more, backing off from 1 s, a Retry-After of up to 2 minutes waited for. */
const PAGE_RETRY = { retries: 3, baseDelayMs: 1_000, maxDelayMs: 15_000, maxRetryAfterMs: 120_000 };

/**
 * The scraper service (issue 22): marketplaces and their scrape configs, scrape jobs read in
 * Chromium page by page (each page a run any replica may take), the scraped products, the exchange
 * rate, the global commission and the commission tiers, and publishing to the shop through shop-sync.
 */
export async function buildScraperApp({ config, prisma, runs, outside, logger, signer }: ServiceContext<ScraperConfig, PrismaClient>): Promise<ServiceParts<{ jobs: ScrapeJobs; browsers: BrowserHolder; reader: ListingReader }>> {
  // Every marketplace URL is checked where it would be fetched from: no loopback, private or metadata address.
  const guard = new OutboundGuard({ allow: config.SCRAPER_ALLOWED_HOSTS });
  const browsers = new BrowserHolder({ executablePath: config.SCRAPER_BROWSER_PATH, logger });
  const reader = new ListingReader({
    browsers,
    guard,
    pageTimeoutMs: config.SCRAPER_PAGE_TIMEOUT_MS,
    outsideFor: (host) => outside({ system: `marketplace ${host}`, baseUrl: `http://${host}`, timeoutMs: config.SCRAPER_PAGE_TIMEOUT_MS, retry: PAGE_RETRY }),
  });
  const jobs = new ScrapeJobs({ prisma, runs, reader, priceChangeThresholdPercent: config.SCRAPER_PRICE_CHANGE_THRESHOLD_PERCENT, logger });
  const publishing = new Publishing({
    prisma,
    shopSync: config.SHOP_SYNC_URL ? new ServiceClient({ baseUrl: config.SHOP_SYNC_URL, signer }) : null,
    reader,
    priceChangeThresholdPercent: config.SCRAPER_PRICE_CHANGE_THRESHOLD_PERCENT,
    logger,
  });
  return {
    routes(app) {
      registerPricingSettingsRoutes(app, prisma);
      registerMarketplaceRoutes(app, { prisma, guard });
      registerJobRoutes(app, { prisma, jobs });
      registerProductRoutes(app, { prisma, publishing });
      registerPublishingRoutes(app, { prisma, publishing });
    },
    runs: [jobs.kind],
    alerts: scraperAlertRules(prisma),
    configItems: () => scraperConfigItems(config),
    exposed: { jobs, browsers, reader },
    stop: () => browsers.close(),
  };
}
