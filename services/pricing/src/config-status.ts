import type { ConfigItem } from '@bo/proto';
import { usesSheetsSimulator, type PricingConfig } from './config';

/** What the gateway's config-status page shows for this service. */
export function pricingConfigItems(config: PricingConfig): ConfigItem[] {
  return [
    { name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: usesSheetsSimulator(config) },
    { name: config.REDIS_URL ? 'Price cache (Redis)' : 'Price cache (in memory, one process)', category: 'Pricing', configured: true, simulated: false },
  ];
}
