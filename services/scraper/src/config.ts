import { z } from 'zod';
import { serviceEnvSchema } from '@bo/platform';

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
});
export type ScraperConfig = z.infer<typeof scraperEnvSchema>;
