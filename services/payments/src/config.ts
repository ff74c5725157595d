import { z } from 'zod';
import { dataEncryptionEnv, loadConfig, publicUrlSetting, secretSetting, serviceEnvSchema } from '@bo/platform';
import { isClockStep } from '@bo/platform/runs';

const optionalText = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());
const flag = z.preprocess((v) => v === 'true' || v === '1', z.boolean());

export const paymentsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(5103),
  /** The address customers and QPay reach us at: payment links and callback URLs are built on it. */
  PUBLIC_URL: publicUrlSetting(),
  /** Seals the QPay client secret in qpay_settings. */
  ...dataEncryptionEnv,
  /** QPay's two bases (external-apis.md §1); the settings' environment chooses one. */
  QPAY_PRODUCTION_URL: z.url().default('https://merchant.qpay.mn/v2'),
  QPAY_SANDBOX_URL: z.url().default('https://merchant-sandbox.qpay.mn/v2'),
  /** The settings a fresh database starts with (the /qpay page changes them afterwards). */
  QPAY_CLIENT_ID: optionalText,
  QPAY_CLIENT_SECRET: optionalText,
  QPAY_INVOICE_CODE: optionalText,
  QPAY_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  QPAY_ENABLED: flag.default(false),
  /** Per QPay request. */
  QPAY_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** An unpaid invoice is cancelled (at QPay and here) this long after it was made. */
  INVOICE_EXPIRY_MINUTES: z.coerce.number().int().min(1).max(60 * 24 * 30).default(24 * 60),
  /** How often pending invoices are checked with QPay (lost callbacks) and expired ones cancelled. */
  RECONCILE_EVERY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(30_000)
    .refine(isClockStep, 'must be a step a clock divides evenly (e.g. 5, 10, 15, 20 or 30 seconds or minutes, or an hour): the scheduler runs it on a cron expression'),
  /**
   * The chat flow's X-Webhook-Secret, required everywhere: without it anyone could order through
   * /api/qpay/webhook. Like the other QPAY_* settings it only seeds a fresh database (sealed in
   * qpay_settings); afterwards Rotate on /qpay replaces it.
   */
  QPAY_WEBHOOK_SECRET: secretSetting,
  /** Where the chat webhook reads the prices it charges: streaming codes (NFX-12M) from streaming-keys, other products from pricing. */
  STREAMING_KEYS_URL: z.url(),
  PRICING_URL: z.url(),
});
export type PaymentsConfig = z.infer<typeof paymentsEnvSchema>;

export const loadPaymentsConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(paymentsEnvSchema, env);
