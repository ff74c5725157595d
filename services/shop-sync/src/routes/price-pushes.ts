import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { pricePushOutcome, recentPricePushes } from '@bo/proto';
import type { PricePushes } from '../operations/price-pushes';
import { shopStore } from '../store/shop-store';
import type { ShopRouteDeps } from './shop';

/** What became of price edits: the page's recent list, and pricing's bounded wait for one edit's toast. */
export function registerPricePushRoutes(app: FastifyInstance, { prisma, pushes }: Pick<ShopRouteDeps, 'prisma'> & { pushes: PricePushes }): void {
  serveRoute(app, recentPricePushes, async ({ query }) => ({ data: await shopStore.recentPricePushes(prisma, query.limit) }));
  serveRoute(app, pricePushOutcome, async ({ params, query }) => pushes.outcomeOf(params.eventId, query.waitMs));
}
