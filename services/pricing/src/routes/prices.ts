import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { chargeablePrice, getPrice, listedProductPrice, listPrices, updatePrice } from '@bo/proto';
import { priceSummary } from '../domain/price-rows';
import type { PriceCatalog } from '../domain/price-catalog';
import type { ShopSyncOutcomes } from '../clients/shop-sync-outcomes';

/** Price reads are public (the chat platform calls them); writes are admin-only (see the contracts); payments reads the price it charges internally. */
export function registerPriceRoutes(app: FastifyInstance, catalog: PriceCatalog, shopOutcomes: ShopSyncOutcomes): void {
  serveRoute(app, listPrices, async ({ query }) => {
    const list = await catalog.list();
    return {
      success: true,
      data: query.format === 'array' ? list.rows : list.rows.map(priceSummary),
      count: list.rows.length,
      lastUpdated: list.fetchedAt,
      stale: list.stale,
    };
  });

  serveRoute(app, getPrice, async ({ params }) => {
    const { stale, ...row } = await catalog.get(params.product);
    return { success: true, data: priceSummary(row), stale };
  });

  // What payments charges a chat order: the price customers see, from the last good copy when the sheet is down.
  serveRoute(app, listedProductPrice, async ({ params }) => {
    const { stale, ...row } = await catalog.get(params.product);
    const price = chargeablePrice(row);
    if (price === null) throw notFound(`"${row.product}" has no price in the price list`);
    return { product: row.product, price, stale };
  });

  serveRoute(app, updatePrice, async ({ params, body }) => {
    const { stale: _stale, ...row } = await catalog.get(params.product);
    const updated = await catalog.update({ ...row, ...body }, params.product);
    return { success: true, data: priceSummary(updated.row), woocommerceSync: await shopOutcomes.of(updated.eventId) };
  });
}
