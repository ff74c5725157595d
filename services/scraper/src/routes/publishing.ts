import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import {
  listProductMappings, publishScrapedProduct, publishSelectedProducts, PUBLISHED_MESSAGE, rescrapeScrapedProduct, syncChangedPrices,
  syncPublishedPrices, syncShopDeletions, toggleScrapedProductStatus, unpublishScrapedProduct, UNPUBLISHED_MESSAGE,
} from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import type { Publishing } from '../operations/publishing';
import { mappingStore, mappingView } from '../store/mapping-store';

/** The Products tab's shop actions (document 2 §7.3): publish, unpublish, public/private, rescrape, the bulk publish and the three syncs. */
export function registerPublishingRoutes(app: FastifyInstance, { prisma, publishing }: { prisma: PrismaClient; publishing: Publishing }): void {
  serveRoute(app, listProductMappings, async () => ({ success: true, data: (await mappingStore.list(prisma)).map(mappingView) }));

  serveRoute(app, publishScrapedProduct, async ({ params }) => ({ success: true, message: PUBLISHED_MESSAGE, data: mappingView(await publishing.publish(params.id)) }));

  serveRoute(app, unpublishScrapedProduct, async ({ params }) => {
    await publishing.unpublish(params.id);
    return { success: true, message: UNPUBLISHED_MESSAGE };
  });

  serveRoute(app, toggleScrapedProductStatus, async ({ params, body }) => {
    const mapping = await publishing.setStatus(params.id, body.status);
    return { success: true, message: body.status === 'publish' ? 'Product is now public' : 'Product is now private', data: mappingView(mapping) };
  });

  serveRoute(app, rescrapeScrapedProduct, async ({ params }) => ({ success: true, data: await publishing.rescrape(params.id) }));

  serveRoute(app, publishSelectedProducts, async ({ body }) => ({ success: true, data: await publishing.publishSelected(body.productIds) }));

  serveRoute(app, syncShopDeletions, async () => ({ success: true, data: await publishing.syncDeletions() }));

  serveRoute(app, syncPublishedPrices, async () => ({ success: true, data: await publishing.syncPrices() }));

  serveRoute(app, syncChangedPrices, async () => ({ success: true, data: await publishing.syncChangedPrices() }));
}
