import type { ConfigItem } from '@bo/proto';
import type { ScraperConfig } from './config';

/** What the gateway's config-status page shows for this service. */
export function scraperConfigItems(config: ScraperConfig): ConfigItem[] {
  // Hosts let past the outbound guard are this machine's simulator (the embedded run) or a test's.
  return [{ name: 'Marketplace scraping', category: 'Scraper', configured: true, simulated: config.SCRAPER_ALLOWED_HOSTS.length > 0 }];
}
