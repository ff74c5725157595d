import { isSimulatorUrl } from '@bo/platform';
import type { ConfigItem } from '@bo/proto';
import type { ShopSyncConfig } from './config';

/** What the gateway's config-status page shows for this service (the secret never, only whether it is set). */
export function shopSyncConfigItems(config: ShopSyncConfig): ConfigItem[] {
  const simulated = isSimulatorUrl(config.WOOCOMMERCE_URL);
  return [
    { name: 'WooCommerce store URL', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_URL), simulated },
    { name: 'WooCommerce consumer key', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_CONSUMER_KEY), simulated },
    { name: 'WooCommerce consumer secret', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_CONSUMER_SECRET), simulated },
  ];
}
