import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { deleteScrapedGame, deleteScrapedProduct, getPriceComparison, listProductGames, listScrapedProducts } from '@bo/proto';
import { compareByGame } from '../domain/comparison';
import type { PrismaClient } from '../generated/prisma/client';
import type { Publishing } from '../operations/publishing';
import { pricingSettingsStore } from '../store/pricing-settings-store';
import { productStore } from '../store/product-store';

/** The Products tab (a page of variations, the games with their counts, deletes, published ones out of the shop first) and the Comparison tab. */
export function registerProductRoutes(app: FastifyInstance, { prisma, publishing }: { prisma: PrismaClient; publishing: Publishing }): void {
  serveRoute(app, listScrapedProducts, async ({ query }) => {
    const { data, total } = await productStore.page(prisma, query.page, query.limit);
    return { success: true, data, pagination: { page: query.page, limit: query.limit, total, totalPages: Math.max(1, Math.ceil(total / query.limit)) } };
  });

  serveRoute(app, listProductGames, async () => ({ success: true, data: await productStore.games(prisma) }));

  serveRoute(app, getPriceComparison, async ({ query }) => {
    const [products, rules] = await Promise.all([productStore.forComparison(prisma, query.gameName), pricingSettingsStore.rules(prisma)]);
    const compared = products.map((product) => ({ ...product, priceUsd: Number(product.priceUsd), marketplaceName: product.marketplace.name }));
    return { success: true, data: compareByGame(compared, rules) };
  });

  // A published variation leaves the shop first: a failure there leaves it here too, to try again.
  serveRoute(app, deleteScrapedProduct, async ({ params }) => {
    await publishing.unpublishAny([params.id]);
    if (!(await productStore.delete(prisma, params.id))) throw notFound('Product not found');
    return { success: true };
  });

  serveRoute(app, deleteScrapedGame, async ({ params }) => {
    await publishing.unpublishAny(await productStore.idsOfGame(prisma, params.gameName));
    const deleted = await productStore.deleteGame(prisma, params.gameName);
    if (deleted === 0) throw notFound(`No products of ${params.gameName}`);
    return { success: true, data: { deleted } };
  });
}
