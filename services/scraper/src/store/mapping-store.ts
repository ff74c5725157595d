import type { ListingStatus, ProductMappingView, ShopListingPlaced } from '@bo/proto';
import type { Prisma, PrismaClient, ProductMapping } from '../generated/prisma/client';

type Db = PrismaClient | Prisma.TransactionClient;

/** A mapping with its product's Changed mark, as every read of one here includes it. */
export type MappingRow = ProductMapping & { scrapedProduct: { priceChanged: boolean } };
const withChanged = { scrapedProduct: { select: { priceChanged: true } } } as const;

export const mappingView = (row: MappingRow): ProductMappingView => ({
  id: row.id,
  scrapedProductId: row.scrapedProductId,
  woocommerceProductId: row.woocommerceProductId,
  parentProductId: row.woocommerceProductId,
  woocommerceVariationId: row.woocommerceVariationId,
  status: row.status as ListingStatus,
  autoSyncEnabled: row.autoSyncEnabled,
  publishedPriceMnt: row.publishedPriceMnt,
  priceChanged: row.scrapedProduct.priceChanged,
  permalink: row.permalink,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** Which scraped variations are in the shop, where, and at what price; the products' woocommerce ids move with them. */
export const mappingStore = {
  list(prisma: PrismaClient): Promise<MappingRow[]> {
    return prisma.productMapping.findMany({ include: withChanged, orderBy: { id: 'asc' } });
  },

  /** The published ones with their scraped product (for the price syncs), `changedOnly` those whose marketplace price changed. */
  withProducts(prisma: PrismaClient, changedOnly = false) {
    return prisma.productMapping.findMany({ where: changedOnly ? { scrapedProduct: { priceChanged: true } } : {}, include: { scrapedProduct: true }, orderBy: { id: 'asc' } });
  },

  find(db: Db, scrapedProductId: number): Promise<ProductMapping | null> {
    return db.productMapping.findUnique({ where: { scrapedProductId } });
  },

  /** Where shop-sync placed the product: the mapping made or brought up to date, and the product's ids set, together. */
  async recordPlaced(prisma: PrismaClient, scrapedProductId: number, placed: ShopListingPlaced, priceMnt: number): Promise<MappingRow> {
    const fields = { woocommerceProductId: placed.parentId, woocommerceVariationId: placed.variationId, status: placed.status, publishedPriceMnt: priceMnt, permalink: placed.permalink };
    return prisma.$transaction(async (tx) => {
      await tx.scrapedProduct.update({ where: { id: scrapedProductId }, data: { woocommerceParentId: placed.parentId, woocommerceVariationId: placed.variationId } });
      return tx.productMapping.upsert({ where: { scrapedProductId }, create: { scrapedProductId, ...fields }, update: fields, include: withChanged });
    });
  },

  async setStatus(prisma: PrismaClient, scrapedProductId: number, status: ListingStatus): Promise<MappingRow> {
    return prisma.productMapping.update({ where: { scrapedProductId }, data: { status }, include: withChanged });
  },

  /** Prices the shop took: each mapping's published price; `clearChanged` also takes the Changed mark off its product. */
  async recordPrices(prisma: PrismaClient, prices: { scrapedProductId: number; priceMnt: number }[], clearChanged: boolean): Promise<void> {
    if (prices.length === 0) return;
    await prisma.$transaction(async (tx) => {
      for (const { scrapedProductId, priceMnt } of prices) await tx.productMapping.update({ where: { scrapedProductId }, data: { publishedPriceMnt: priceMnt } });
      if (clearChanged) await tx.scrapedProduct.updateMany({ where: { id: { in: prices.map((price) => price.scrapedProductId) } }, data: { priceChanged: false } });
    });
  },

  /** The products are no longer in the shop: their mappings gone and their ids cleared, together. */
  async forget(prisma: PrismaClient, scrapedProductIds: number[]): Promise<number> {
    if (scrapedProductIds.length === 0) return 0;
    return prisma.$transaction(async (tx) => {
      await tx.scrapedProduct.updateMany({ where: { id: { in: scrapedProductIds } }, data: { woocommerceParentId: null, woocommerceVariationId: null } });
      return (await tx.productMapping.deleteMany({ where: { scrapedProductId: { in: scrapedProductIds } } })).count;
    });
  },
};
