import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildPricingApp } from './app';
import { pricingEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The pricing service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'pricing',
  configSchema: pricingEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  // Without a Google project, the Sheets simulator's price list and its generated service-account key.
  simulatorEnv: (simulators) => ({
    GOOGLE_SHEETS_SPREADSHEET_ID: 'sim-price-list',
    GOOGLE_SHEETS_ROOT_URL: simulators.sheets,
    GOOGLE_SERVICE_ACCOUNT_URL: `${simulators.sheets}/__sim/service-account`,
  }),
  build: buildPricingApp,
});
