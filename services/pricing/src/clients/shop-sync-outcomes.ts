import type { Logger } from '@bo/platform';
import type { ServiceClient } from '@bo/platform';
import { pricePushOutcome, type WoocommerceSyncOutcome } from '@bo/proto';

/**
 * What an edit did in the online shop, for the edit's reply (the 'Data Updated' toast's suffix).
 * shop-sync consumes the edit's event and pushes the price; this asks it for the outcome of that
 * event, waiting a bounded time. An answer still pending at the deadline, or no answer at all,
 * is `failed` for the toast, while the push goes on and shows on /woocommerce.
 */
export class ShopSyncOutcomes {
  constructor(private readonly deps: { shopSync: ServiceClient | null; waitMs: number; logger: Logger }) {}

  async of(eventId: string): Promise<WoocommerceSyncOutcome> {
    const { shopSync, waitMs, logger } = this.deps;
    if (!shopSync) return 'not_configured';
    try {
      const { outcome, error } = await shopSync.call(pricePushOutcome, { params: { eventId }, query: { waitMs }, timeoutMs: waitMs + 2_000 });
      if (outcome === 'pending') logger.warn({ eventId, error }, 'the shop had not taken the edit when its reply was due');
      return outcome === 'pending' ? 'failed' : outcome;
    } catch (error) {
      logger.warn({ err: error, eventId }, 'could not ask shop-sync what the edit did in the shop');
      return 'failed';
    }
  }
}
