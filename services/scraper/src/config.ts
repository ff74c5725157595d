import { z } from 'zod';
import { optionalUrl, serviceEnvSchema } from '@bo/platform';

export const scraperEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5107),
  /**
   * Hosts a marketplace URL may name although they resolve to a loopback or private address (the
   * outbound guard refuses those otherwise): `host` or `host:port`, comma-separated. The embedded
   * run lists its own marketplace simulator; production lists none.
   */
  SCRAPER_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((entry) => entry.trim()).filter(Boolean)),
  /** Pages one scraper process reads at once (its runs' concurrency); each replica adds as many. */
  SCRAPER_PAGES_PER_WORKER: z.coerce.number().int().min(1).max(16).default(2),
  /** One page's load and render, each try (a slower page counts as a failed try). */
  SCRAPER_PAGE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(30_000),
  /** A rescraped price is flagged as changed only past this percent of the old one (0: any change). */
  SCRAPER_PRICE_CHANGE_THRESHOLD_PERCENT: z.coerce.number().min(0).max(1_000).default(0),
  /**
   * The Chromium the pages are rendered in: Debian's `chromium-headless-shell` package (the image
   * installs it), Chromium's own build for headless use, as Playwright's headless default is. It
   * read pages three times as fast as the full browser run headless, in about 250 MB less (bench/scraper.ts).
   */
  SCRAPER_BROWSER_PATH: z.string().min(1).default('/usr/bin/chromium-headless-shell'),
  /** The shop-sync service, which puts published products in the shop; unset: publishing answers 503. */
  SHOP_SYNC_URL: optionalUrl,
});
export type ScraperConfig = z.infer<typeof scraperEnvSchema>;
