import { z } from 'zod';
import { loadConfig, optionalUrl, serviceEnvSchema } from '@bo/platform';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

export const shopSyncEnvSchema = serviceEnvSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(5102),
    /** The shop's address (https://shop.example.mn); the REST API is under /wp-json/wc/v3. Unset: no shop configured. */
    WOOCOMMERCE_URL: optionalUrl,
    /** WooCommerce → Settings → Advanced → REST API: a read_write key (ck_…) and its secret (cs_…). */
    WOOCOMMERCE_CONSUMER_KEY: optionalText,
    WOOCOMMERCE_CONSUMER_SECRET: optionalText,
    /** Send the keys as query parameters instead of Basic auth, for servers whose proxy strips the Authorization header. */
    WOOCOMMERCE_KEYS_IN_QUERY: z.preprocess((v) => v === 'true' || v === '1', z.boolean()).default(false),
    /** Per request (the official PHP client's default is 15 s). */
    WOOCOMMERCE_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
    /** Items per batch request: WooCommerce accepts at most 100. */
    WOOCOMMERCE_BATCH_SIZE: z.coerce.number().int().min(1).max(100).default(100),
    /** The pricing service, for the sheet's rows (sync, auto-map, reconciliation) and the export into the sheet. */
    PRICING_URL: z.url(),
  })
  .refine((env) => !env.WOOCOMMERCE_URL || (env.WOOCOMMERCE_CONSUMER_KEY && env.WOOCOMMERCE_CONSUMER_SECRET), {
    path: ['WOOCOMMERCE_CONSUMER_KEY'],
    message: 'WOOCOMMERCE_URL is set: WOOCOMMERCE_CONSUMER_KEY and WOOCOMMERCE_CONSUMER_SECRET are required too',
  });
export type ShopSyncConfig = z.infer<typeof shopSyncEnvSchema>;

export const loadShopSyncConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(shopSyncEnvSchema, env);

/** The shop connection settings, or null when no shop is configured. */
export function shopSettings(config: ShopSyncConfig) {
  if (!config.WOOCOMMERCE_URL || !config.WOOCOMMERCE_CONSUMER_KEY || !config.WOOCOMMERCE_CONSUMER_SECRET) return null;
  return {
    storeUrl: config.WOOCOMMERCE_URL,
    consumerKey: config.WOOCOMMERCE_CONSUMER_KEY,
    consumerSecret: config.WOOCOMMERCE_CONSUMER_SECRET,
    keysInQuery: config.WOOCOMMERCE_KEYS_IN_QUERY,
    timeoutMs: config.WOOCOMMERCE_TIMEOUT_MS,
  };
}
