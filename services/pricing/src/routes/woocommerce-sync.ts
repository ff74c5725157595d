import type { WoocommerceSyncOutcome } from '@bo/proto';

/**
 * What an edit did to the online shop. The shop-sync service consumes pricing.price.updated and
 * pushes prices to WooCommerce; until that service is deployed, there is no shop to sync.
 */
export function woocommerceSyncOutcome(): WoocommerceSyncOutcome {
  return 'not_configured';
}
