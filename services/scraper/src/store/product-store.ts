import type { ProductGame, ScrapedProduct as ProductView } from '@bo/proto';
import { Prisma, type PrismaClient, type ScrapedProduct } from '../generated/prisma/client';
import type { ProductFields } from '../scraping/offer-fields';

type Tx = Prisma.TransactionClient;

const num = (value: Prisma.Decimal | null) => (value === null ? null : Number(value));

export const productView = (row: ScrapedProduct): ProductView => ({
  id: row.id,
  marketplaceId: row.marketplaceId,
  gameName: row.gameName,
  productName: row.productName,
  variationValue: row.variationValue,
  attributeName: row.attributeName,
  priceUsd: Number(row.priceUsd),
  previousPriceUsd: num(row.previousPriceUsd),
  priceChanged: row.priceChanged,
  sourceUrl: row.sourceUrl,
  sellerName: row.sellerName,
  sellerLevel: row.sellerLevel,
  sellerLocation: row.sellerLocation,
  orderSuccessRate: num(row.orderSuccessRate),
  totalSales: row.totalSales,
  ratingDescription: num(row.ratingDescription),
  ratingService: num(row.ratingService),
  ratingSpeed: num(row.ratingSpeed),
  rawText: row.rawText,
  scrapedAt: row.scrapedAt.toISOString(),
  woocommerceVariationId: row.woocommerceVariationId,
  woocommerceParentId: row.woocommerceParentId,
});

/**
 * True when `next` is a change from `previous` worth flagging: any change at a threshold of 0,
 * else a change of more than `thresholdPercent` of the old price (changedetection.io's threshold).
 */
export function isPriceChange(previous: number, next: number, thresholdPercent: number): boolean {
  if (previous === next) return false;
  if (thresholdPercent <= 0 || previous === 0) return true;
  return (Math.abs(next - previous) / previous) * 100 > thresholdPercent;
}

export const productStore = {
  /**
   * Stores one page's offers: a new offer is the baseline; a known one gets its fields again and,
   * when its price moved past the threshold, priceChanged with the price before. The rows are
   * locked first, so two pages (or replicas) saving the same offer cannot both count it new.
   */
  async save(tx: Tx, marketplaceId: number, offers: ProductFields[], thresholdPercent: number): Promise<{ found: number; inserted: number }> {
    // In key order: two pages saving the same offers lock and insert them in the same order (no deadlock).
    const unique = [...new Map(offers.map((offer) => [offer.offerKey, offer])).values()].sort((a, b) => (a.offerKey < b.offerKey ? -1 : a.offerKey > b.offerKey ? 1 : 0));
    if (unique.length === 0) return { found: 0, inserted: 0 };
    const keys = unique.map((offer) => offer.offerKey);
    const known = await tx.$queryRaw<{ id: number; offer_key: string; price_usd: Prisma.Decimal }[]>`
      SELECT id, offer_key, price_usd FROM "scraper".scraped_products
      WHERE marketplace_id = ${marketplaceId} AND offer_key = ANY(${keys}::text[]) ORDER BY offer_key COLLATE "C" FOR UPDATE`;
    const byKey = new Map(known.map((row) => [row.offer_key, row]));
    const now = new Date();
    const fresh = unique.filter((offer) => !byKey.has(offer.offerKey));
    const inserted = fresh.length ? (await tx.scrapedProduct.createMany({ data: fresh.map((offer) => ({ ...offer, marketplaceId, scrapedAt: now })), skipDuplicates: true })).count : 0;
    for (const offer of unique) {
      const before = byKey.get(offer.offerKey);
      if (!before) continue;
      const previous = Number(before.price_usd);
      const changed = isPriceChange(previous, offer.priceUsd, thresholdPercent);
      await tx.scrapedProduct.update({
        where: { id: before.id },
        data: { ...offer, scrapedAt: now, ...(changed ? { priceChanged: true, previousPriceUsd: previous } : {}) },
      });
    }
    return { found: unique.length, inserted };
  },

  /** A page of products, by game, product and variation (document 2 §9: 50 a page). */
  async page(prisma: PrismaClient, page: number, limit: number): Promise<{ data: ProductView[]; total: number }> {
    const [rows, total] = await Promise.all([
      prisma.scrapedProduct.findMany({ orderBy: [{ gameName: 'asc' }, { productName: 'asc' }, { priceUsd: 'asc' }, { id: 'asc' }], skip: (page - 1) * limit, take: limit }),
      prisma.scrapedProduct.count(),
    ]);
    return { data: rows.map(productView), total };
  },

  /** Every game with its variations counted (all of them, for the grouping's badges). */
  async games(prisma: PrismaClient): Promise<ProductGame[]> {
    const rows = await prisma.$queryRaw<{ game_name: string; variations: number; changed: number; marketplaces: number; min_price: Prisma.Decimal; max_price: Prisma.Decimal }[]>`
      SELECT game_name, count(*)::int AS variations, count(*) FILTER (WHERE price_changed)::int AS changed,
             count(DISTINCT marketplace_id)::int AS marketplaces, min(price_usd) AS min_price, max(price_usd) AS max_price
      FROM "scraper".scraped_products GROUP BY game_name ORDER BY game_name`;
    return rows.map((row) => ({ gameName: row.game_name, variations: row.variations, changed: row.changed, marketplaces: row.marketplaces, minPriceUsd: Number(row.min_price), maxPriceUsd: Number(row.max_price) }));
  },

  /** The variations of one game, or of every game, with their marketplace's name: what the comparison is made of. */
  async forComparison(prisma: PrismaClient, gameName?: string) {
    return prisma.scrapedProduct.findMany({
      where: gameName ? { gameName } : {},
      orderBy: [{ gameName: 'asc' }, { productName: 'asc' }, { variationValue: 'asc' }, { priceUsd: 'asc' }, { id: 'asc' }],
      include: { marketplace: { select: { name: true } } },
      take: 5_000,
    });
  },

  async delete(prisma: PrismaClient, id: number): Promise<boolean> {
    return (await prisma.scrapedProduct.deleteMany({ where: { id } })).count === 1;
  },

  async idsOfGame(prisma: PrismaClient, gameName: string): Promise<number[]> {
    return (await prisma.scrapedProduct.findMany({ where: { gameName }, select: { id: true } })).map((row) => row.id);
  },

  async deleteGame(prisma: PrismaClient, gameName: string): Promise<number> {
    return (await prisma.scrapedProduct.deleteMany({ where: { gameName } })).count;
  },
};
