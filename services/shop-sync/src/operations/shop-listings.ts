/**
 * Scraped variations in the shop, on the scraper's behalf (proto's scraped-listing-routes.ts): a
 * game is one variable product, each scraped variation one of its variations.
 *
 * Publishing must survive being cut off half-way (this process or the scraper killed between two
 * calls, an answer lost): both the game's product and the variation carry a SKU made from what
 * they are, the shop keeps SKUs unique, and every step looks by SKU before it makes anything. A
 * repeated publish therefore finds what an earlier try made and finishes it. The steps of one game
 * run one at a time across every replica (an advisory lock), so two publishes of its variations
 * cannot both make its product, and adding an option to its attribute cannot lose another's.
 */
import { createHash } from 'node:crypto';
import { chunks, groupBy } from '@bo/platform/batches';
import type { ShopListing, ShopListingPlaced, ShopPlace } from '@bo/proto';
import { WooCommerceError, WOO_BATCH_LIMIT, type WooCommerceClient, type WooProduct, type WooVariation } from '../clients/woocommerce';
import type { PrismaClient } from '../generated/prisma/client';

const shortHash = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** The game's product: one per game name, whatever its case or spacing. */
export const gameSku = (gameName: string) => `scraper-game-${shortHash(gameName.trim().replace(/\s+/g, ' ').toLowerCase(), 16)}`;

/**
 * The variation: the scraped product's id and what it is, so a database started afresh (ids from 1
 * again) cannot take over a variation an earlier one published.
 */
export const variationSku = (listing: Pick<ShopListing, 'scrapedProductId' | 'gameName' | 'attributeName' | 'variationValue'>) =>
  `scraper-${listing.scrapedProductId}-${shortHash(`${listing.gameName}\n${listing.attributeName}\n${listing.variationValue}`, 8)}`;

/** How long one game's steps may wait for another publish of the same game, and take. */
const GAME_LOCK = { maxWait: 30_000, timeout: 60_000 };

const isDuplicateSku = (error: unknown) => error instanceof WooCommerceError && error.status === 400 && error.code === 'product_invalid_sku';
const isGone = (error: unknown) => error instanceof WooCommerceError && error.status === 404;

export class ShopListings {
  constructor(private readonly deps: { prisma: PrismaClient; shop: WooCommerceClient }) {}

  /** Puts the variation in the shop at this price and status, making its game's product when missing; finds both by SKU first. */
  place(listing: ShopListing): Promise<ShopListingPlaced> {
    return this.oneGameAtATime(gameSku(listing.gameName), async () => {
      const { shop } = this.deps;
      const parent = await this.gameProduct(listing);
      const sku = variationSku(listing);
      const fields = { regular_price: listing.regularPrice, status: listing.status };
      let variation = await shop.findVariationBySku(parent.id, sku);
      const adopted = variation !== null;
      if (!variation) {
        variation = await shop.createVariation(parent.id, { sku, ...fields, attributes: [{ name: listing.attributeName, option: listing.variationValue }] }).catch(async (error: unknown) => {
          if (!isDuplicateSku(error)) throw error;
          const found = await shop.findVariationBySku(parent.id, sku);
          if (!found) throw new WooCommerceError(409, 'sku_taken', `The shop has SKU ${sku} on another product: remove it there, then publish again`);
          return found;
        });
      }
      if (variation.regular_price !== fields.regular_price || variation.status !== fields.status) variation = await shop.updateVariation(parent.id, variation.id, fields);
      return { parentId: parent.id, variationId: variation.id, permalink: variation.permalink, status: variation.status, regularPrice: variation.regular_price, adopted };
    });
  }

  async setStatus(place: ShopPlace, status: ShopListing['status']): Promise<WooVariation> {
    return this.deps.shop.updateVariation(place.parentId, place.variationId, { status });
  }

  /** Deletes the variation, and its game's product when no variation is left. Already gone: removed false. */
  async remove(place: ShopPlace): Promise<{ removed: boolean; parentRemoved: boolean }> {
    const { shop } = this.deps;
    const parent = await shop.getProduct(place.parentId).catch((error: unknown) => {
      if (isGone(error)) return null;
      throw error;
    });
    if (!parent) return { removed: false, parentRemoved: false };
    return this.oneGameAtATime(parent.sku, async () => {
      let removed = true;
      await shop.deleteVariation(place.parentId, place.variationId).catch((error: unknown) => {
        if (!isGone(error)) throw error;
        removed = false;
      });
      // Only a product this service made for a game is removed with its last variation.
      const left = await shop.listVariations(place.parentId);
      if (left.length > 0 || !parent.sku.startsWith('scraper-game-')) return { removed, parentRemoved: false };
      await shop.deleteProduct(place.parentId);
      return { removed, parentRemoved: true };
    });
  }

  /** Which of these the shop no longer has: each game's variations read once. */
  async missing(items: ShopPlace[]): Promise<ShopPlace[]> {
    const missing: ShopPlace[] = [];
    for (const [parentId, places] of byParent(items)) {
      const variations = await this.deps.shop.listVariations(parentId).catch((error: unknown) => {
        if (isGone(error)) return [];
        throw error;
      });
      const present = new Set(variations.map((variation) => variation.id));
      missing.push(...places.filter((place) => !present.has(place.variationId)));
    }
    return missing;
  }

  /** Sets prices in batches per game; each item's outcome, in the order given. */
  async setPrices(items: (ShopPlace & { regularPrice: string })[]): Promise<{ variationId: number; ok: boolean; regularPrice: string | null; error: string | null }[]> {
    const outcomes = new Map<number, { ok: boolean; regularPrice: string | null; error: string | null }>();
    for (const [parentId, places] of byParent(items)) {
      for (const batch of chunks(places, WOO_BATCH_LIMIT)) {
        try {
          const results = await this.deps.shop.batchUpdatePrices(parentId, batch.map((place) => ({ id: place.variationId, regular_price: place.regularPrice, sale_price: '' })));
          for (const result of results) outcomes.set(result.id, result.ok ? { ok: true, regularPrice: result.item.regular_price, error: null } : { ok: false, regularPrice: null, error: result.error });
        } catch (error) {
          if (!(error instanceof WooCommerceError)) throw error;
          for (const place of batch) outcomes.set(place.variationId, { ok: false, regularPrice: null, error: error.message });
        }
      }
    }
    return items.map((item) => ({ variationId: item.variationId, ...(outcomes.get(item.variationId) ?? { ok: false, regularPrice: null, error: 'no answer for this item' }) }));
  }

  /** The game's variable product with the variation's option on its attribute: found by SKU (in the trash too), else made. */
  private async gameProduct(listing: ShopListing): Promise<WooProduct> {
    const { shop } = this.deps;
    const sku = gameSku(listing.gameName);
    let product = await shop.findProductBySku(sku);
    if (!product) {
      const trashed = await shop.findProductBySku(sku, true);
      product = trashed
        ? await shop.updateProduct(trashed.id, { status: 'publish' })
        : await shop
            .createProduct({
              name: listing.gameName.trim(),
              type: 'variable',
              sku,
              status: 'publish',
              attributes: [{ name: listing.attributeName, options: [listing.variationValue], variation: true, visible: true }],
            })
            // A try repeated after its answer was lost: the first one made it.
            .catch(async (error: unknown) => {
              const made = isDuplicateSku(error) ? await shop.findProductBySku(sku) : null;
              if (!made) throw error;
              return made;
            });
    }
    const attribute = product.attributes.find((one) => one.name === listing.attributeName);
    if (attribute?.options?.includes(listing.variationValue)) return product;
    const others = product.attributes.filter((one) => one.name !== listing.attributeName);
    const options = [...(attribute?.options ?? []), listing.variationValue];
    return shop.updateProduct(product.id, { attributes: [...others, { name: listing.attributeName, options, variation: true, visible: true }] });
  }

  /** Runs `work` while holding the game's lock (a transaction-scoped advisory lock, released at its end whatever happens). */
  private oneGameAtATime<T>(sku: string, work: () => Promise<T>): Promise<T> {
    return this.deps.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`shop-listing:${sku}`}))`;
      return work();
    }, GAME_LOCK);
  }
}

const byParent = <T extends ShopPlace>(items: T[]): Map<number, T[]> => groupBy(items, (item) => item.parentId);
