import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildShopSyncApp } from './app';
import { shopSyncEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/**
 * The WooCommerce simulator's default read_write key (simulators/woocommerce/src/state.ts,
 * defaultKeys): what the embedded run uses when no real shop is configured.
 */
export const SIMULATOR_KEY = { key: 'ck_8c333646238bc970057d1710e1406f9a85de9dd0', secret: 'cs_c6185b59438c7575312024fc3772c4f82d397da4' };

/** The shop-sync service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'shop-sync',
  configSchema: shopSyncEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  simulatorEnv: (simulators) => ({
    WOOCOMMERCE_URL: simulators.woocommerce,
    WOOCOMMERCE_CONSUMER_KEY: SIMULATOR_KEY.key,
    WOOCOMMERCE_CONSUMER_SECRET: SIMULATOR_KEY.secret,
  }),
  deployment: {
    settings: { WOOCOMMERCE_URL: 'https://shop.example.mn', WOOCOMMERCE_KEYS_IN_QUERY: 'false' },
    secrets: { WOOCOMMERCE_CONSUMER_KEY: 'ck_replace-me', WOOCOMMERCE_CONSUMER_SECRET: 'cs_replace-me' },
  },
  build: buildShopSyncApp,
});
