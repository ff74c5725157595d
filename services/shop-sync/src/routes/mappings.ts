import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { addMapping, autoMap, deleteMapping, listMappings, type ShopItem } from '@bo/proto';
import { WooCommerceError, type WooCommerceClient } from '../clients/woocommerce';
import { planAutoMap } from '../domain/auto-map';
import { catalogueItems, productItem } from '../domain/catalogue';
import { readShopCatalogue } from '../operations/shop-catalogue';
import { mappingView, shopStore } from '../store/shop-store';
import { fromShop, requireShop } from './shop-errors';
import type { ShopRouteDeps } from './shop';

/**
 * The shop item with this id: a product, or else a variation (the REST API reads a variation only
 * through its parent, so the variable products are searched).
 */
async function findShopItem(shop: WooCommerceClient, id: number): Promise<ShopItem> {
  try {
    return productItem(await shop.getProduct(id));
  } catch (error) {
    if (!(error instanceof WooCommerceError) || error.status !== 404) throw error;
  }
  const { products, variationsOf } = await readShopCatalogue(shop);
  const item = catalogueItems(products, variationsOf).find((candidate) => candidate.id === id && candidate.parentId !== 0);
  if (!item) throw notFound(`WooCommerce has no product or variation with id ${id}`);
  return item;
}

/** The mappings table and the two ways rows get into it: the operator's form and auto-map. */
export function registerMappingRoutes(app: FastifyInstance, { prisma, shop, sheet }: ShopRouteDeps): void {
  serveRoute(app, listMappings, async () => ({ data: (await shopStore.listMappings(prisma)).map(mappingView) }));

  serveRoute(app, addMapping, async ({ body }) => {
    const item = await fromShop(() => findShopItem(requireShop(shop), body.woocommerceId));
    const { record, replaced } = await shopStore.saveMapping(prisma, body.productName, item, 'manual');
    return { success: true, data: mappingView(record), replaced };
  });

  serveRoute(app, deleteMapping, async ({ params }) => {
    if (!(await shopStore.deleteMapping(prisma, params.productName))) throw notFound(`No mapping for "${params.productName}"`);
    return { success: true };
  });

  serveRoute(app, autoMap, async () => {
    const client = requireShop(shop);
    const [catalogue, list, existing] = await Promise.all([fromShop(() => readShopCatalogue(client)), sheet.read(), shopStore.listMappings(prisma)]);
    const current = existing.map((mapping) => ({ productName: mapping.productName, woocommerceId: mapping.woocommerceId, mappedBy: mapping.mappedBy === 'auto' ? ('auto' as const) : ('manual' as const) }));
    const { results, writes } = planAutoMap(list.rows, catalogueItems(catalogue.products, catalogue.variationsOf), current);
    await prisma.$transaction((tx) => shopStore.saveAutoMappings(tx, writes, new Set(existing.map((mapping) => mapping.productKey))));
    const count = (outcome: string) => results.filter((result) => result.outcome === outcome).length;
    return { success: true, mapped: count('mapped'), failed: count('not_found'), kept: count('kept_manual'), results };
  });
}
