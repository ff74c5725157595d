import type { OutsideOptions, OutsideSystem } from '@bo/platform/outside';
import type { PricingConfig } from '../config';
import type { ServiceAccountCredentials } from './price-sheet';

/** The key file from the environment, or (simulator only) fetched from the Sheets simulator at start. */
export async function resolveCredentials(config: PricingConfig, outside: (options: OutsideOptions) => OutsideSystem): Promise<ServiceAccountCredentials> {
  if (config.GOOGLE_SERVICE_ACCOUNT_JSON) return config.GOOGLE_SERVICE_ACCOUNT_JSON;
  const url = config.GOOGLE_SERVICE_ACCOUNT_URL!;
  const answer = await outside({ system: 'google-sheets-key', baseUrl: url, timeoutMs: 5_000 }).call({ operation: 'serviceAccountKey', method: 'GET', path: '', idempotent: true });
  if (answer.status !== 200) throw new Error(`Could not fetch the service-account key from ${url}: ${answer.status}`);
  return JSON.parse(answer.text) as ServiceAccountCredentials;
}
