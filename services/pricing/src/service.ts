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
  deployment: {
    settings: { GOOGLE_SHEETS_SPREADSHEET_ID: 'replace-with-the-sheet-id', GOOGLE_SHEETS_SHEET_NAME: 'Sheet1' },
    secrets: {
      GOOGLE_SERVICE_ACCOUNT_JSON: '{"client_email":"replace-me@project.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\\nreplace-me\\n-----END PRIVATE KEY-----\\n"}',
    },
  },
  build: buildPricingApp,
});
