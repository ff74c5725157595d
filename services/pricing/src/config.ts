import { z } from 'zod';
import { loadConfig, optionalUrl, serviceEnvSchema } from '@bo/platform';
import { PRICE_PUSH_WAIT_MAX_MS } from '@bo/proto';
import type { ServiceAccountCredentials } from './clients/price-sheet';

const serviceAccountJson = z.string().transform((raw, ctx): ServiceAccountCredentials => {
  try {
    const parsed = JSON.parse(raw) as Partial<ServiceAccountCredentials>;
    if (!parsed.client_email || !parsed.private_key) throw new Error('client_email and private_key are required');
    return parsed as ServiceAccountCredentials;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `not a service-account key JSON (${(error as Error).message})` });
    return z.NEVER;
  }
});

export const pricingEnvSchema = serviceEnvSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(5101),
    GOOGLE_SHEETS_SPREADSHEET_ID: z.string().min(1),
    GOOGLE_SHEETS_SHEET_NAME: z.string().min(1).default('Sheet1'),
    /** The service account's key JSON, as Google gives it (one line). */
    GOOGLE_SERVICE_ACCOUNT_JSON: z.preprocess((v) => (v === '' ? undefined : v), serviceAccountJson.optional()),
    /** Simulator only: where to fetch the key JSON the Sheets simulator generated. */
    GOOGLE_SERVICE_ACCOUNT_URL: optionalUrl,
    /** Origin of the Sheets API; set to the simulator's URL when no real Google project is used. */
    GOOGLE_SHEETS_ROOT_URL: optionalUrl,
    /**
     * The project's Sheets quota: reads, and writes, a minute per user (a service account is one).
     * Google's default is 60; every process using the account paces itself to it together.
     */
    GOOGLE_SHEETS_QUOTA_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
    PRICE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /** The shop-sync service, asked what an edit did in the shop; unset: no shop, edits answer not_configured. */
    SHOP_SYNC_URL: optionalUrl,
    /** How long an edit's reply waits for the shop's answer before saying `failed` (the push still completes). */
    SHOP_SYNC_WAIT_MS: z.coerce.number().int().min(0).max(PRICE_PUSH_WAIT_MAX_MS).default(4_000),
  })
  .refine((env) => env.GOOGLE_SERVICE_ACCOUNT_JSON || env.GOOGLE_SERVICE_ACCOUNT_URL, {
    path: ['GOOGLE_SERVICE_ACCOUNT_JSON'],
    message: 'set GOOGLE_SERVICE_ACCOUNT_JSON (or GOOGLE_SERVICE_ACCOUNT_URL for the simulator)',
  });
export type PricingConfig = z.infer<typeof pricingEnvSchema>;

export const loadPricingConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(pricingEnvSchema, env);

/** True when the API root is not Google's, i.e. a simulator stands in for the spreadsheet. */
export function usesSheetsSimulator(config: Pick<PricingConfig, 'GOOGLE_SHEETS_ROOT_URL'>): boolean {
  return config.GOOGLE_SHEETS_ROOT_URL !== undefined && !config.GOOGLE_SHEETS_ROOT_URL.includes('googleapis.com');
}
