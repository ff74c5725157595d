import { AppError, notFound, serviceUnavailable } from '@bo/platform';
import { WooCommerceError, type WooCommerceClient } from '../clients/woocommerce';

export const NOT_CONFIGURED = 'WooCommerce is not configured: set WOOCOMMERCE_URL, WOOCOMMERCE_CONSUMER_KEY and WOOCOMMERCE_CONSUMER_SECRET';

/** The shop client, or a clear 503 when none is configured. */
export function requireShop(shop: WooCommerceClient | null): WooCommerceClient {
  if (!shop) throw serviceUnavailable(NOT_CONFIGURED);
  return shop;
}

/**
 * Runs a shop call and turns its failure into the reply the page shows: the shop's own words,
 * as 502 (the shop failed us), 404 where the shop says the thing does not exist.
 */
export async function fromShop<T>(call: () => Promise<T>, notFoundMessage?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof WooCommerceError)) throw error;
    if (error.status === 404 && notFoundMessage) throw notFound(notFoundMessage);
    throw new AppError(502, 'shop_failed', error.message);
  }
}
