import type { FastifyInstance } from 'fastify';
import { adminNameOf, conflict, notFound, serveRoute } from '@bo/platform';
import {
  createCommissionTier, deleteCommissionTier, getExchangeRate, listCommissionTiers, updateCommissionRate, updateCommissionTier, updateExchangeRate,
} from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import { OverlappingTier, pricingSettingsStore } from '../store/pricing-settings-store';

const overlapping = () => conflict('Commission tiers must not overlap: another tier covers part of this price range');

/** The Pricing tab: the exchange rate and global commission card, and the commission tiers. */
export function registerPricingSettingsRoutes(app: FastifyInstance, prisma: PrismaClient): void {
  serveRoute(app, getExchangeRate, async () => ({ success: true, data: await pricingSettingsStore.current(prisma) }));

  serveRoute(app, updateExchangeRate, async ({ body, identity }) => ({ success: true, data: await pricingSettingsStore.save(prisma, { rate: body.rate }, adminNameOf(identity)) }));

  serveRoute(app, updateCommissionRate, async ({ body, identity }) => ({
    success: true,
    data: await pricingSettingsStore.save(prisma, { commissionRate: body.commissionRate }, adminNameOf(identity)),
  }));

  serveRoute(app, listCommissionTiers, async () => ({ success: true, data: await pricingSettingsStore.tiers(prisma) }));

  serveRoute(app, createCommissionTier, async ({ body }) => {
    try {
      return { success: true, data: await pricingSettingsStore.createTier(prisma, body) };
    } catch (error) {
      throw error instanceof OverlappingTier ? overlapping() : error;
    }
  });

  serveRoute(app, updateCommissionTier, async ({ params, body }) => {
    let tier;
    try {
      tier = await pricingSettingsStore.updateTier(prisma, params.id, body);
    } catch (error) {
      throw error instanceof OverlappingTier ? overlapping() : error;
    }
    if (!tier) throw notFound('Commission tier not found');
    return { success: true, data: tier };
  });

  serveRoute(app, deleteCommissionTier, async ({ params }) => {
    if (!(await pricingSettingsStore.deleteTier(prisma, params.id))) throw notFound('Commission tier not found');
    return { success: true };
  });
}
