/**
 * A price edit reaching the shop, in the two steps of every outside call (events/README.md):
 * the pricing.price.updated consumer decides in its transaction (not configured, not mapped, or
 * pending with a recorded push), and the push runs after the commit, retried on 429/5xx/timeouts.
 *
 * A push does not send its own event's prices but the newest edit of the product, and looks again
 * after the shop answered: whichever push lands last, the shop ends with the newest edit, so an
 * older revision never overwrites a newer one, whatever order retries and replicas run in.
 */
import { onEvent, outsideEffect, outsideEffectDefaults, type OutsideEffect, type OutsideEffects } from '@bo/platform/events';
import { pricingPriceUpdated, type WoocommerceSyncOutcome } from '@bo/proto';
import { WooCommerceError, type WooCommerceClient } from '../clients/woocommerce';
import { pricesOfRow } from '../domain/prices';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { shopStore } from '../store/shop-store';

/** Rounds of "push, then look for a newer edit" one execution makes before leaving the rest to the next. */
const PUSH_ROUNDS = 3;
/** How often a waiter looks at the database when the decision may come from another replica. */
const WAIT_POLL_MS = 50;

/** Wakes the waiters of this process when a push is decided here (others find it by polling). */
export class DecisionSignal {
  private waiters = new Set<() => void>();

  notify(): void {
    const waiting = this.waiters;
    this.waiters = new Set();
    for (const wake of waiting) wake();
  }

  /** Resolves at the next decision or after `ms`. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }
}

export interface PricePushDeps {
  prisma: PrismaClient;
  /** The shop client, or null when no shop is configured. */
  shop: WooCommerceClient | null;
  signal: DecisionSignal;
}

/** Reading and writing the push rows around the shop's answers, the database being slow for a moment included. */
const BOOKKEEPING_MS = 10_000;

export class PricePushes {
  /**
   * The outside effect the consumer records: push the product's newest edit to the shop. Its
   * deadline covers every round's request with all its tries, so the claim outlasts a slow shop.
   */
  readonly effect: OutsideEffect<{ productName: string }>;

  constructor(private readonly deps: PricePushDeps) {
    const deadlineMs = PUSH_ROUNDS * (deps.shop?.requestDeadlineMs ?? 0) + BOOKKEEPING_MS;
    this.effect = outsideEffect<{ productName: string }>('push-price-to-shop', (payload, context) => this.pushLatest(payload.productName, context.attempt), { deadlineMs });
  }

  /** The consumer of pricing.price.updated: records the edit and decides what happens to it, in the inbox transaction. */
  consumer(effects: OutsideEffects) {
    return onEvent(pricingPriceUpdated, async (tx: Prisma.TransactionClient, event) => {
      const { product, revision, row, previous } = event.payload;
      if (previous) await shopStore.followRename(tx, previous.product, product);
      const edit = { eventId: event.id, productName: product, revision, regularPrice: row.regularPrice, salePrice: row.salePrice };
      if (!this.deps.shop) return shopStore.recordPricePush(tx, { ...edit, outcome: 'not_configured' });
      const mapping = await shopStore.findMapping(tx, product);
      if (!mapping) return shopStore.recordPricePush(tx, { ...edit, outcome: 'no_mapping' });
      await shopStore.recordPricePush(tx, { ...edit, outcome: 'pending' });
      await effects.record(tx, event.id, this.effect, { productName: mapping.productName });
    });
  }

  /**
   * Sends the product's newest edit unless the shop already has it, then looks again. A refusal
   * that retrying cannot fix (bad key, product gone from the shop, a price the shop refuses) is
   * decided `failed` at once; a rate limit, server error or timeout is retried by the effect
   * runner, and decided `failed` only when its attempts are used up.
   */
  async pushLatest(productName: string, attempt = 1): Promise<void> {
    const { prisma, shop } = this.deps;
    for (let round = 0; round < PUSH_ROUNDS; round++) {
      const [mapping, latest] = await Promise.all([shopStore.findMapping(prisma, productName), shopStore.latestPricePush(prisma, productName)]);
      if (!latest) return;
      if (!mapping) return this.decide(productName, latest.revision, 'no_mapping');
      if (!shop) return this.decide(productName, latest.revision, 'not_configured');
      if (mapping.lastSyncedRevision !== null && mapping.lastSyncedRevision >= latest.revision) return this.decide(productName, latest.revision, 'success');
      const wanted = pricesOfRow(latest);
      if ('error' in wanted) return this.decide(productName, latest.revision, 'failed', wanted.error);
      let item;
      try {
        item = await shop.updatePrices({ id: mapping.woocommerceId, parentId: mapping.parentId }, wanted.prices);
      } catch (error) {
        const message = (error as Error).message;
        if (error instanceof WooCommerceError && error.retryable && attempt < outsideEffectDefaults.maxAttempts) {
          await shopStore.notePricePushError(prisma, productName, latest.revision, message);
          throw error;
        }
        return this.decide(productName, latest.revision, 'failed', message);
      }
      await shopStore.recordSynced(prisma, mapping.id, { regular_price: item.regular_price, sale_price: item.sale_price }, { revision: latest.revision, permalink: item.permalink });
      await this.decide(productName, latest.revision, 'success');
    }
  }

  /** An edit's outcome, waiting up to `waitMs` while it is pending (or not yet consumed). */
  async outcomeOf(eventId: string, waitMs: number): Promise<{ outcome: WoocommerceSyncOutcome | 'pending'; error: string | null }> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const push = await shopStore.findPricePush(this.deps.prisma, eventId);
      if (push && push.outcome !== 'pending') return { outcome: push.outcome as WoocommerceSyncOutcome, error: push.error };
      const left = deadline - Date.now();
      if (left <= 0) return { outcome: 'pending', error: push?.error ?? null };
      await this.deps.signal.wait(Math.min(left, WAIT_POLL_MS));
    }
  }

  private async decide(productName: string, revision: number, outcome: WoocommerceSyncOutcome, error: string | null = null): Promise<void> {
    await shopStore.decidePricePushes(this.deps.prisma, productName, revision, outcome, error);
    this.deps.signal.notify();
  }
}
