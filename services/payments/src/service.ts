import { fileURLToPath } from 'node:url';
import { defineService } from '@bo/platform/service';
import { buildPaymentsApp } from './app';
import { paymentsEnvSchema } from './config';
import { PrismaClient } from './generated/prisma/client';

/** The QPay simulator's default merchant (simulators/qpay/src/state.ts): what the embedded run uses. */
export const SIMULATOR_MERCHANT = { clientId: 'TEST_MERCHANT', clientSecret: '123456', invoiceCode: 'TEST_INVOICE' };

/** Settings that point payments at a QPay simulator at `qpayUrl`, its merchant enabled (the embedded run, tests). */
export const qpaySimulatorSettings = (qpayUrl: string) => ({
  QPAY_PRODUCTION_URL: `${qpayUrl}/v2`,
  QPAY_SANDBOX_URL: `${qpayUrl}/sandbox/v2`,
  QPAY_CLIENT_ID: SIMULATOR_MERCHANT.clientId,
  QPAY_CLIENT_SECRET: SIMULATOR_MERCHANT.clientSecret,
  QPAY_INVOICE_CODE: SIMULATOR_MERCHANT.invoiceCode,
  QPAY_ENABLED: 'true',
});

/** The payments service, as every launcher starts it (see proto's service registry). */
export default defineService({
  name: 'payments',
  configSchema: paymentsEnvSchema,
  prisma: PrismaClient,
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  simulatorEnv: (simulators) => qpaySimulatorSettings(simulators.qpay),
  deployment: {
    settings: { PUBLIC_URL: 'https://shop.example.mn', QPAY_ENVIRONMENT: 'production', INVOICE_EXPIRY_MINUTES: '1440' },
    secrets: {
      DATA_ENCRYPTION_KEY: 'replace-with-32-or-more-random-characters',
      QPAY_CLIENT_ID: 'replace-me',
      QPAY_CLIENT_SECRET: 'replace-me',
      QPAY_INVOICE_CODE: 'replace-me',
      QPAY_WEBHOOK_SECRET: 'replace-with-the-secret-header-of-the-chat-flow',
    },
  },
  sealedColumns: [
    { table: 'qpay_settings', column: 'qpay_client_secret' },
    { table: 'qpay_settings', column: 'webhook_secret' },
  ],
  build: buildPaymentsApp,
});
