import { effectivePrice, priceRowSchema, productKey, schemaOf, type PriceRow } from '@bo/proto';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

export const PRICING_SCHEMA = schemaOf('pricing');

/** The service's database client or one of its transactions: store functions run in either, never opening their own. */
export type PricingDb = PrismaClient | Prisma.TransactionClient;

function columns(row: PriceRow, position: number) {
  return {
    position,
    product: row.product,
    price: effectivePrice(row),
    regularPrice: row.regularPrice,
    salePrice: row.salePrice,
    description: row.description,
    row: row as unknown as Prisma.InputJsonValue,
  };
}

/** pricing_data and price_revisions through Prisma; the only place that touches the pricing tables. */
export const pricingStore = {
  /** The last good copy of the sheet, or null when none was ever saved. */
  async loadCopy(db: PricingDb) {
    const records = await db.pricingData.findMany({ orderBy: { position: 'asc' } });
    if (records.length === 0) return null;
    const lastUpdated = records.reduce((latest, r) => (r.lastUpdated > latest ? r.lastUpdated : latest), records[0].lastUpdated);
    return { rows: records.map((r) => priceRowSchema.parse(r.row)), lastUpdated };
  },

  /**
   * Makes the copy equal to the sheet just read, in two statements whatever the sheet's length (a
   * row per statement made a 1,000-row sheet cost seconds on every refresh). Call it in a
   * transaction. A name the sheet repeats keeps its first row, as lookups do.
   */
  async replaceCopy(tx: PricingDb, rows: PriceRow[]): Promise<void> {
    const lastUpdated = new Date();
    await tx.pricingData.deleteMany({});
    await tx.pricingData.createMany({ data: rows.map((row, position) => ({ ...columns(row, position), lastUpdated })), skipDuplicates: true });
  },

  /** Saves an edited row into the copy and returns the product's next revision. Call it in the edit's transaction. */
  async saveEdit(tx: PricingDb, row: PriceRow, previous: PriceRow | null): Promise<number> {
    const existing = previous ? await tx.pricingData.findUnique({ where: { product: previous.product } }) : null;
    const data = { ...columns(row, existing?.position ?? 0), lastUpdated: new Date() };
    if (existing) await tx.pricingData.update({ where: { id: existing.id }, data });
    else await tx.pricingData.upsert({ where: { product: row.product }, create: data, update: data });
    const { revision } = await tx.priceRevision.upsert({
      where: { product: productKey(row.product) },
      create: { product: productKey(row.product), revision: 1 },
      update: { revision: { increment: 1 } },
    });
    return revision;
  },
};
