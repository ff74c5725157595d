import type { ServiceCode, StreamingPricingRow } from '@bo/proto';
import { Prisma, type StreamingPricing } from '../generated/prisma/client';
import type { KeysDb } from './key-store';

export const pricingView = (record: StreamingPricing): StreamingPricingRow => ({
  id: record.id,
  service: record.service as ServiceCode,
  serviceName: record.serviceName,
  duration: record.duration,
  price: record.price,
  isActive: record.isActive,
});

/** Prisma's unique-constraint failure. */
export const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** The streaming price list; the only place that touches streaming_pricing. */
export const pricingStore = {
  list(db: KeysDb) {
    return db.streamingPricing.findMany({ orderBy: [{ service: 'asc' }, { duration: 'asc' }] });
  },

  /** The active price of a service for a number of months, or null when none is listed. */
  async priceOf(db: KeysDb, service: ServiceCode, months: number): Promise<number | null> {
    const row = await db.streamingPricing.findUnique({ where: { service_duration: { service, duration: months } } });
    return row?.isActive ? row.price : null;
  },

  /** Null when the service already has a price for that duration. */
  async create(db: KeysDb, data: { service: ServiceCode; serviceName: string; duration: number; price: number; isActive?: boolean }) {
    try {
      return await db.streamingPricing.create({ data });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  },

  /** Null when there is no such row. */
  async update(db: KeysDb, id: number, data: { price: number; isActive?: boolean }) {
    const { count } = await db.streamingPricing.updateMany({ where: { id }, data });
    return count === 1 ? db.streamingPricing.findUnique({ where: { id } }) : null;
  },

  async delete(db: KeysDb, id: number): Promise<boolean> {
    return (await db.streamingPricing.deleteMany({ where: { id } })).count === 1;
  },
};
