import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { exportToSheets, reconciliation, shopProducts, storeStatus } from '@bo/proto';
import type { WooCommerceClient } from '../clients/woocommerce';
import type { PriceSheetClient } from '../clients/price-sheet';
import { catalogueItems } from '../domain/catalogue';
import { reconcile } from '../domain/reconcile';
import { sheetRowsOf } from '../domain/sheet-rows';
import type { PrismaClient } from '../generated/prisma/client';
import { readShopCatalogue } from '../operations/shop-catalogue';
import { shopStore } from '../store/shop-store';
import { fromShop, requireShop } from './shop-errors';

export interface ShopRouteDeps {
  prisma: PrismaClient;
  shop: WooCommerceClient | null;
  sheet: PriceSheetClient;
}

/** The shop as the page sees it: connection, catalogue, export into the sheet, price reconciliation. */
export function registerShopRoutes(app: FastifyInstance, { prisma, shop, sheet }: ShopRouteDeps): void {
  serveRoute(app, storeStatus, async () => {
    if (!shop) return { configured: false, connected: false, error: null, count: null, storeUrl: null };
    try {
      return { configured: true, connected: true, error: null, count: await shop.countProducts(), storeUrl: shop.storeUrl };
    } catch (error) {
      return { configured: true, connected: false, error: (error as Error).message, count: null, storeUrl: shop.storeUrl };
    }
  });

  serveRoute(app, shopProducts, async () => {
    const catalogue = await fromShop(() => readShopCatalogue(requireShop(shop)));
    return { success: true, count: catalogue.products.length, data: catalogueItems(catalogue.products, catalogue.variationsOf) };
  });

  serveRoute(app, exportToSheets, async () => {
    const catalogue = await fromShop(() => readShopCatalogue(requireShop(shop)));
    const rows = sheetRowsOf(catalogue.products, catalogue.variationsOf);
    const written = await sheet.merge(rows);
    return { success: true, productsExported: rows.length, totalRows: written.totalRows, sheetName: written.sheetName };
  });

  serveRoute(app, reconciliation, async () => {
    const client = requireShop(shop);
    const [catalogue, list, mappings] = await Promise.all([fromShop(() => readShopCatalogue(client)), sheet.read(), shopStore.listMappings(prisma)]);
    return { checkedAt: new Date().toISOString(), ...reconcile(mappings, list.rows, catalogueItems(catalogue.products, catalogue.variationsOf)) };
  });
}
