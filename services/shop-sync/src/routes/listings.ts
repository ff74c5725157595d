import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { missingShopListings, placeShopListing, priceShopListings, removeShopListing, setShopListingStatus } from '@bo/proto';
import type { WooCommerceClient } from '../clients/woocommerce';
import type { PrismaClient } from '../generated/prisma/client';
import { ShopListings } from '../operations/shop-listings';
import { fromShop, requireShop } from './shop-errors';

/** The scraper's commands on its variations in the shop (internal: only the scraper may call them). */
export function registerListingRoutes(app: FastifyInstance, { prisma, shop }: { prisma: PrismaClient; shop: WooCommerceClient | null }): void {
  const listings = () => new ShopListings({ prisma, shop: requireShop(shop) });

  serveRoute(app, placeShopListing, async ({ body }) => fromShop(() => listings().place(body)));

  serveRoute(app, setShopListingStatus, async ({ body }) => {
    const variation = await fromShop(() => listings().setStatus(body, body.status), `The shop has no variation ${body.variationId} of product ${body.parentId}`);
    return { status: variation.status };
  });

  serveRoute(app, removeShopListing, async ({ body }) => fromShop(() => listings().remove(body)));

  serveRoute(app, missingShopListings, async ({ body }) => ({ missing: await fromShop(() => listings().missing(body.items)) }));

  serveRoute(app, priceShopListings, async ({ body }) => ({ results: await fromShop(() => listings().setPrices(body.items)) }));
}
