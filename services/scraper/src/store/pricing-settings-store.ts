import { DEFAULT_EXCHANGE_RATE, type CommissionTier, type ExchangeRate } from '@bo/proto';
import type { PricingRules } from '@bo/proto/scraper-prices';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** Two tiers' bands overlap (the exclusion constraint on commission_tiers). */
export class OverlappingTier extends Error {}

const tierView = (row: { id: number; minPrice: Prisma.Decimal; maxPrice: Prisma.Decimal | null; commissionRate: Prisma.Decimal }): CommissionTier => ({
  id: row.id,
  minPrice: row.minPrice.toNumber(),
  maxPrice: row.maxPrice?.toNumber() ?? null,
  commissionRate: row.commissionRate.toNumber(),
});

const rateView = (row: { rate: Prisma.Decimal; commissionRate: Prisma.Decimal; isActive: boolean; updatedBy: string | null; createdAt: Date }): ExchangeRate => ({
  fromCurrency: 'USD',
  toCurrency: 'MNT',
  rate: row.rate.toNumber(),
  commissionRate: row.commissionRate.toNumber(),
  isActive: row.isActive,
  updatedBy: row.updatedBy,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The database refused the band because it overlaps another: SQLSTATE 23P01 on the exclusion
 * constraint (Prisma reports it through the pg adapter's error, the constraint named in its text).
 */
function isOverlap(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta?.driverAdapterError?.cause;
  return cause?.originalCode === '23P01' && error instanceof Error && error.message.includes('commission_tiers_no_overlap');
}

/**
 * A tier write, one at a time: the exclusion constraint keeps bands apart, but two overlapping
 * inserts at once wait on each other inside it and one ends in a deadlock; in turn, each later
 * one is refused as the overlap it is (OverlappingTier).
 */
async function tierWrite<T>(prisma: PrismaClient, write: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('scraper.commission_tiers'))`;
      return write(tx);
    });
  } catch (error) {
    if (isOverlap(error)) throw new OverlappingTier();
    throw error;
  }
}

/**
 * The exchange rate, the global commission and the commission tiers. A save of the rate or the
 * commission is a new active row carrying the other value over, under a lock so two saves at once
 * never lose one of them.
 */
export const pricingSettingsStore = {
  async current(prisma: PrismaClient): Promise<ExchangeRate> {
    const row = await prisma.exchangeRate.findFirst({ where: { isActive: true } });
    return row ? rateView(row) : { fromCurrency: 'USD', toCurrency: 'MNT', rate: DEFAULT_EXCHANGE_RATE, commissionRate: 0, isActive: true, updatedBy: null, createdAt: null };
  },

  /** The saved rate as this save left it (another save right after it does not change the reply). */
  async save(prisma: PrismaClient, change: { rate?: number; commissionRate?: number }, updatedBy: string): Promise<ExchangeRate> {
    return prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('scraper.exchange_rates'))`;
      const active = await tx.exchangeRate.findFirst({ where: { isActive: true } });
      await tx.exchangeRate.updateMany({ where: { isActive: true }, data: { isActive: false } });
      const saved = await tx.exchangeRate.create({
        data: {
          rate: change.rate ?? active?.rate ?? DEFAULT_EXCHANGE_RATE,
          commissionRate: change.commissionRate ?? active?.commissionRate ?? 0,
          updatedBy,
        },
      });
      return rateView(saved);
    });
  },

  /** The rate, the global commission and the tiers together: what every MNT price is made with. */
  async rules(prisma: PrismaClient): Promise<PricingRules> {
    const [settings, tiers] = await Promise.all([pricingSettingsStore.current(prisma), pricingSettingsStore.tiers(prisma)]);
    return { rate: settings.rate, commissionRate: settings.commissionRate, tiers };
  },

  async tiers(prisma: PrismaClient): Promise<CommissionTier[]> {
    return (await prisma.commissionTier.findMany({ orderBy: [{ minPrice: 'asc' }, { id: 'asc' }] })).map(tierView);
  },

  /** Throws OverlappingTier when the band overlaps another tier's. */
  async createTier(prisma: PrismaClient, tier: Omit<CommissionTier, 'id'>): Promise<CommissionTier> {
    return tierWrite(prisma, async (tx) => tierView(await tx.commissionTier.create({ data: tier })));
  },

  /** Null when there is no such tier; throws OverlappingTier as createTier does. */
  async updateTier(prisma: PrismaClient, id: number, tier: Omit<CommissionTier, 'id'>): Promise<CommissionTier | null> {
    return tierWrite(prisma, async (tx) => {
      const [row] = await tx.commissionTier.updateManyAndReturn({ where: { id }, data: tier });
      return row ? tierView(row) : null;
    });
  },

  async deleteTier(prisma: PrismaClient, id: number): Promise<boolean> {
    return (await prisma.commissionTier.deleteMany({ where: { id } })).count === 1;
  },
};
