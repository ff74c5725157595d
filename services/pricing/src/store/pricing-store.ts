import { priceRowSchema, schemaOf, type PriceRow } from '@bo/proto';
import { enqueueEvent } from '@bo/platform/events';
import { effectivePrice, productKey } from '../domain/price-rows';
import { priceUpdated } from '../events/price-updated';
import type { PriceSnapshotStore } from '../domain/price-catalog';
import type { PrismaClient, Prisma } from '../generated/prisma/client';

export const PRICING_SCHEMA = schemaOf('pricing');

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

/** pricing_data through Prisma; the only place that touches the pricing tables. */
export class PrismaPriceSnapshotStore implements PriceSnapshotStore {
  constructor(
    private readonly prisma: PrismaClient,
    /** Called after an edit's transaction commits, so the outbox relay publishes at once. */
    private readonly afterCommit: () => void = () => {},
  ) {}

  async load() {
    const records = await this.prisma.pricingData.findMany({ orderBy: { position: 'asc' } });
    if (records.length === 0) return null;
    const lastUpdated = records.reduce((latest, r) => (r.lastUpdated > latest ? r.lastUpdated : latest), records[0].lastUpdated);
    return { rows: records.map((r) => priceRowSchema.parse(r.row)), lastUpdated };
  }

  async replaceAll(rows: PriceRow[]): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.pricingData.deleteMany({ where: { product: { notIn: rows.map((r) => r.product) } } });
      for (const [position, row] of rows.entries()) {
        const data = { ...columns(row, position), lastUpdated: new Date() };
        await tx.pricingData.upsert({ where: { product: row.product }, create: data, update: data });
      }
    });
  }

  async recordEdit(row: PriceRow, previous: PriceRow | null, correlationId: string | null): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const existing = previous ? await tx.pricingData.findUnique({ where: { product: previous.product } }) : null;
      const data = { ...columns(row, existing?.position ?? 0), lastUpdated: new Date() };
      if (existing) await tx.pricingData.update({ where: { id: existing.id }, data });
      else await tx.pricingData.upsert({ where: { product: row.product }, create: data, update: data });
      // The product's next revision, counted in the same transaction as the edit and its event.
      const { revision } = await tx.priceRevision.upsert({
        where: { product: productKey(row.product) },
        create: { product: productKey(row.product), revision: 1 },
        update: { revision: { increment: 1 } },
      });
      await enqueueEvent(tx, PRICING_SCHEMA, priceUpdated(row, previous, revision, correlationId));
    });
    this.afterCommit();
  }
}
