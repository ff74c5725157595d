import type { PricingConfig } from '../config';
import type { ServiceAccountCredentials } from './price-sheet';

/** The key file from the environment, or (simulator only) fetched from the Sheets simulator. */
export async function resolveCredentials(config: PricingConfig): Promise<ServiceAccountCredentials> {
  if (config.GOOGLE_SERVICE_ACCOUNT_JSON) return config.GOOGLE_SERVICE_ACCOUNT_JSON;
  const url = config.GOOGLE_SERVICE_ACCOUNT_URL!;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not fetch the service-account key from ${url}: ${response.status}`);
  return (await response.json()) as ServiceAccountCredentials;
}
