/**
 * Scraped variations to the shop and back (document 2 §2.3, §4 "product"; issue 22). The scraper
 * never calls WooCommerce: shop-sync places, prices, hides and removes them (its internal listing
 * routes), and this side keeps where each one went (`product_mappings`).
 *
 * A publish cut off half-way (the shop has the variation, the mapping was never written) is
 * finished by the next publish of that product: shop-sync finds it by its SKU and hands it back.
 */
import type { Logger, ServiceClient } from '@bo/platform';
import { AppError, notFound, serviceUnavailable } from '@bo/platform';
import { chunks } from '@bo/platform/batches';
import {
  missingShopListings, placeShopListing, priceShopListings, removeShopListing, setShopListingStatus,
  SHOP_LISTINGS_PER_CALL, type ListingStatus, type ScrapeConfig, type ShopPlace,
} from '@bo/proto';
import { shopPriceMnt, type PricingRules } from '@bo/proto/scraper-prices';
import type { PrismaClient, ProductMapping, ScrapedProduct } from '../generated/prisma/client';
import { PageRefused, type ListingReader } from '../scraping/listing-reader';
import { productOf } from '../scraping/offer-fields';
import { mappingStore, type MappingRow } from '../store/mapping-store';
import { pricingSettingsStore } from '../store/pricing-settings-store';
import { isPriceChange, productStore } from '../store/product-store';

export const SHOP_SYNC_NOT_CONFIGURED = 'Publishing needs the shop-sync service: set SHOP_SYNC_URL';
/** A publish may wait for other publishes of the same game at shop-sync (one game at a time), then for the shop. */
const PLACE_TIMEOUT_MS = 90_000;
/** Publish-selected's products in flight at once. */
const PUBLISH_CONCURRENCY = 4;
/** How long a rescrape may take to read the offer's page, every try included. */
const RESCRAPE_DEADLINE_MS = 120_000;

/** How a product is named in a bulk action's errors. */
const labelOf = (product: Pick<ScrapedProduct, 'id' | 'productName' | 'variationValue'>) => `${product.productName}${product.variationValue ? ` (${product.variationValue})` : ''}`;
const placeOf = (mapping: ProductMapping): ShopPlace => ({ parentId: mapping.woocommerceProductId, variationId: mapping.woocommerceVariationId });

export class Publishing {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      shopSync: ServiceClient | null;
      reader: ListingReader;
      priceChangeThresholdPercent: number;
      logger: Logger;
    },
  ) {}

  /**
   * Publishes (or brings up to date) one variation at its MNT price now; keeps it private when it
   * was made private. `rules`: the pricing rules when the caller has read them for several products.
   */
  async publish(productId: number, rules?: PricingRules): Promise<MappingRow> {
    const { prisma } = this.deps;
    const product = await prisma.scrapedProduct.findUnique({ where: { id: productId }, include: { mapping: true } });
    if (!product) throw notFound('Product not found');
    const priceMnt = shopPriceMnt(Number(product.priceUsd), rules ?? (await pricingSettingsStore.rules(prisma)));
    if (priceMnt <= 0) throw new AppError(400, 'invalid_price', `${labelOf(product)} has no price to sell at (${product.priceUsd} USD)`);
    const placed = await this.shopSync().call(placeShopListing, {
      body: {
        scrapedProductId: product.id,
        gameName: product.gameName,
        attributeName: product.attributeName?.trim() || 'Option',
        variationValue: product.variationValue?.trim() || product.productName,
        regularPrice: String(priceMnt),
        status: (product.mapping?.status as ListingStatus | undefined) ?? 'publish',
      },
      timeoutMs: PLACE_TIMEOUT_MS,
    });
    if (placed.adopted) this.deps.logger.info({ productId, ...placed }, 'the shop had this variation from an earlier publish cut off half-way: taken over');
    return mappingStore.recordPlaced(prisma, product.id, placed, priceMnt).catch((error: unknown) => {
      // Deleted here while the shop was placing it: the next Sync Deletions or its game's unpublish cleans the shop.
      if ((error as { code?: string }).code === 'P2025') throw notFound('Product not found');
      throw error;
    });
  }

  /** Each product alone, a few at a time: the counts and each failure named. */
  async publishSelected(productIds: number[]): Promise<{ successful: number; failed: number; errors: string[] }> {
    const ids = [...new Set(productIds)];
    const products = new Map((await this.deps.prisma.scrapedProduct.findMany({ where: { id: { in: ids } }, select: { id: true, productName: true, variationValue: true } })).map((product) => [product.id, product]));
    // Every product at the rules as they are now, read once.
    const rules = await pricingSettingsStore.rules(this.deps.prisma);
    const errors: string[] = [];
    let successful = 0;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const product = products.get(id);
        try {
          if (!product) throw notFound('Product not found');
          await this.publish(id, rules);
          successful++;
        } catch (error) {
          errors.push(`${product ? labelOf(product) : `Product ${id}`}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUBLISH_CONCURRENCY, ids.length) }, worker));
    return { successful, failed: errors.length, errors };
  }

  /** Takes it out of the shop (its game product too when it was the last) and forgets where it was. */
  async unpublish(productId: number): Promise<void> {
    if (!(await mappingStore.find(this.deps.prisma, productId))) throw notFound('Product is not published');
    await this.unpublishAny([productId]);
  }

  /** Takes the products that are published out of the shop; the others are left as they are (a delete calls this first). */
  async unpublishAny(productIds: number[]): Promise<void> {
    const mappings = await this.deps.prisma.productMapping.findMany({ where: { scrapedProductId: { in: productIds } } });
    for (const mapping of mappings) {
      await this.shopSync().call(removeShopListing, { body: placeOf(mapping) });
      await mappingStore.forget(this.deps.prisma, [mapping.scrapedProductId]);
    }
  }

  /** Public (publish) or private (draft) in the shop. */
  async setStatus(productId: number, status: ListingStatus): Promise<MappingRow> {
    const mapping = await mappingStore.find(this.deps.prisma, productId);
    if (!mapping) throw notFound('Product is not published');
    await this.shopSync().call(setShopListingStatus, { body: { ...placeOf(mapping), status } });
    return mappingStore.setStatus(this.deps.prisma, productId, status);
  }

  /** Forgets the publications whose variation was deleted in the shop. */
  async syncDeletions(): Promise<{ checked: number; deleted: number }> {
    const mappings = await mappingStore.list(this.deps.prisma);
    const byPlace = new Map(mappings.map((mapping) => [mapping.woocommerceVariationId, mapping.scrapedProductId]));
    let deleted = 0;
    for (const part of chunks(mappings, SHOP_LISTINGS_PER_CALL)) {
      const { missing } = await this.shopSync().call(missingShopListings, { body: { items: part.map(placeOf) }, timeoutMs: PLACE_TIMEOUT_MS });
      deleted += await mappingStore.forget(this.deps.prisma, missing.map((place) => byPlace.get(place.variationId)).filter((id) => id !== undefined));
    }
    return { checked: mappings.length, deleted };
  }

  /** Every published variation at its MNT price as the rules make it now; those already at it are skipped. */
  async syncPrices(): Promise<{ updated: number; skipped: number; errors: number; failures: string[] }> {
    const rules = await pricingSettingsStore.rules(this.deps.prisma);
    const priced = (await mappingStore.withProducts(this.deps.prisma)).map((mapping) => ({ mapping, priceMnt: shopPriceMnt(Number(mapping.scrapedProduct.priceUsd), rules) }));
    const due = priced.filter(({ mapping, priceMnt }) => priceMnt !== mapping.publishedPriceMnt);
    const { pushed, failures } = await this.pushPrices(due, false);
    return { updated: pushed, skipped: priced.length - due.length, errors: failures.length, failures };
  }

  /** The published variations whose marketplace price changed: their new MNT price to the shop, their Changed mark cleared. */
  async syncChangedPrices(): Promise<{ syncedCount: number; failed: number; failures: string[] }> {
    const rules = await pricingSettingsStore.rules(this.deps.prisma);
    const changed = (await mappingStore.withProducts(this.deps.prisma, true)).map((mapping) => ({ mapping, priceMnt: shopPriceMnt(Number(mapping.scrapedProduct.priceUsd), rules) }));
    const { pushed, failures } = await this.pushPrices(changed, true);
    return { syncedCount: pushed, failed: failures.length, failures };
  }

  /**
   * Reads the variation's offer page again with its marketplace's config and stores what it says,
   * as a scrape would (the threshold decides priceChanged).
   */
  async rescrape(productId: number): Promise<{ oldPrice: number; newPrice: number; priceChanged: boolean }> {
    const { prisma, reader } = this.deps;
    const product = await prisma.scrapedProduct.findUnique({ where: { id: productId }, include: { marketplace: true } });
    if (!product) throw notFound('Product not found');
    if (!product.sourceUrl) throw new AppError(400, 'no_offer_link', 'This product has no offer link to read again (its marketplace config reads no link)');
    if (!product.marketplace.scrapeConfig) throw new AppError(400, 'no_scrape_config', `${product.marketplace.name} has no scrape config`);
    const source = { url: product.sourceUrl, scrapeConfig: product.marketplace.scrapeConfig as ScrapeConfig, paginationEnabled: false, paginationParam: null };
    let page;
    try {
      page = await reader.read(source, 1, AbortSignal.timeout(RESCRAPE_DEADLINE_MS));
    } catch (error) {
      if (error instanceof PageRefused && (error.status === 404 || error.status === 410)) throw notFound('This offer is no longer on the marketplace');
      throw new AppError(502, 'marketplace_failed', `Could not read the offer page: ${(error as Error).message}`);
    }
    const offer = page.cards.map(productOf).find((one) => one !== null && one.offerKey === product.offerKey);
    if (!offer) throw notFound('The offer page no longer shows this offer');
    const oldPrice = Number(product.priceUsd);
    await prisma.$transaction((tx) => productStore.save(tx, product.marketplaceId, [offer], this.deps.priceChangeThresholdPercent));
    return { oldPrice, newPrice: offer.priceUsd, priceChanged: isPriceChange(oldPrice, offer.priceUsd, this.deps.priceChangeThresholdPercent) };
  }

  private async pushPrices(items: { mapping: ProductMapping & { scrapedProduct: ScrapedProduct }; priceMnt: number }[], clearChanged: boolean): Promise<{ pushed: number; failures: string[] }> {
    const failures: string[] = [];
    let pushed = 0;
    for (const part of chunks(items, SHOP_LISTINGS_PER_CALL)) {
      const { results } = await this.shopSync().call(priceShopListings, {
        body: { items: part.map(({ mapping, priceMnt }) => ({ ...placeOf(mapping), regularPrice: String(priceMnt) })) },
        timeoutMs: PLACE_TIMEOUT_MS,
      });
      const taken = part.filter((_, index) => results[index]?.ok);
      part.forEach(({ mapping }, index) => {
        if (!results[index]?.ok) failures.push(`${labelOf(mapping.scrapedProduct)}: ${results[index]?.error ?? 'no answer'}`);
      });
      await mappingStore.recordPrices(this.deps.prisma, taken.map(({ mapping, priceMnt }) => ({ scrapedProductId: mapping.scrapedProductId, priceMnt })), clearChanged);
      pushed += taken.length;
    }
    return { pushed, failures };
  }

  private shopSync(): ServiceClient {
    if (!this.deps.shopSync) throw serviceUnavailable(SHOP_SYNC_NOT_CONFIGURED);
    return this.deps.shopSync;
  }
}
