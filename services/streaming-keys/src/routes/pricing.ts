import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import { createPricing, deletePricing, listPricing, updatePricing } from '@bo/proto';
import { pricingStore, pricingView } from '../store/pricing-store';
import type { StreamingKeysRouteDeps } from './deps';

/** The Pricing tab: one price per service and duration. */
export function registerPricingRoutes(app: FastifyInstance, { prisma }: StreamingKeysRouteDeps): void {
  serveRoute(app, listPricing, async () => ({ success: true, data: (await pricingStore.list(prisma)).map(pricingView) }));

  serveRoute(app, createPricing, async ({ body }) => {
    const row = await pricingStore.create(prisma, body);
    if (!row) throw conflict(`${body.service} already has a price for ${body.duration} month(s)`);
    return { success: true, data: pricingView(row) };
  });

  serveRoute(app, updatePricing, async ({ params, body }) => {
    const row = await pricingStore.update(prisma, params.id, body);
    if (!row) throw notFound('Price not found');
    return { success: true, data: pricingView(row) };
  });

  serveRoute(app, deletePricing, async ({ params }) => {
    if (!(await pricingStore.delete(prisma, params.id))) throw notFound('Price not found');
    return { success: true };
  });
}
