import type { FastifyInstance } from 'fastify';
import { badRequest, serveRoute } from '@bo/platform';
import { mergeSheetRows, priceColumns, updateSheetRow, type PriceRow } from '@bo/proto';
import type { PriceCatalog } from '../domain/price-catalog';
import type { ShopSyncOutcomes } from '../clients/shop-sync-outcomes';

/**
 * The dashboard sends the whole edited row; `originalProduct` names the row when the product name
 * itself was edited. The docs sample's single-cell form (rowIndex, columnIndex, value) is accepted too.
 */
export function registerSheetRoutes(app: FastifyInstance, catalog: PriceCatalog, shopOutcomes: ShopSyncOutcomes): void {
  serveRoute(app, updateSheetRow, async ({ body }) => {
    let edited: PriceRow;
    let match: string;
    if ('rowIndex' in body) {
      const { rows } = await catalog.list();
      const current = rows[body.rowIndex];
      if (!current) throw badRequest(`Invalid body: rowIndex: no data row ${body.rowIndex} in the sheet`);
      edited = { ...current, [priceColumns[body.columnIndex]]: body.value };
      match = current.product;
    } else {
      const { originalProduct, ...row } = body;
      if (row.product.trim() === '') throw badRequest('Invalid body: product: must not be empty');
      edited = row;
      match = originalProduct ?? row.product;
    }
    const result = await catalog.update(edited, match);
    return { success: true, data: result.row, woocommerceSync: await shopOutcomes.of(result.eventId) };
  });

  // The shop's export (shop-sync): rows merged by woocommerceId.
  serveRoute(app, mergeSheetRows, async ({ body }) => ({ ...(await catalog.mergeRows(body.rows)), sheetName: catalog.sheetName }));
}
