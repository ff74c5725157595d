import type { ConfigItem } from '@bo/proto';
import type { ShopSyncConfig } from './config';

/** A shop address on this machine or a compose simulator host is a stand-in, not a shop. */
function isSimulator(url: string | undefined): boolean {
  if (!url) return false;
  const host = new URL(url).hostname;
  return host === 'localhost' || host.startsWith('127.') || host === '[::1]' || host.endsWith('-simulator');
}

/** What the gateway's config-status page shows for this service (the secret never, only whether it is set). */
export function shopSyncConfigItems(config: ShopSyncConfig): ConfigItem[] {
  const simulated = isSimulator(config.WOOCOMMERCE_URL);
  return [
    { name: 'WooCommerce store URL', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_URL), simulated },
    { name: 'WooCommerce consumer key', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_CONSUMER_KEY), simulated },
    { name: 'WooCommerce consumer secret', category: 'WooCommerce', configured: Boolean(config.WOOCOMMERCE_CONSUMER_SECRET), simulated },
  ];
}
