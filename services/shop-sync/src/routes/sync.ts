import type { FastifyInstance } from 'fastify';
import { badRequest, notFound, serveRoute } from '@bo/platform';
import { startedByOf } from '@bo/platform/runs';
import { findRowByProduct, latestSyncRun, runRowId, syncAll, syncOne } from '@bo/proto';
import { pricesOfRow } from '../domain/prices';
import type { Runs } from '@bo/platform/runs';
import type { SyncRunner } from '../operations/sync-all';
import { shopStore } from '../store/shop-store';
import { fromShop, requireShop } from './shop-errors';
import type { ShopRouteDeps } from './shop';

/** POST /sync answers when the run ends or after this long with its progress (the page polls the rest). */
const SYNC_REPLY_WAIT_MS = 20_000;

/** Sync of everything (a run with progress) and of one product (the reconciliation's fix). */
export function registerSyncRoutes(app: FastifyInstance, { prisma, shop, sheet, runner, runs }: ShopRouteDeps & { runner: SyncRunner; runs: Runs }): void {
  serveRoute(app, syncAll, async ({ identity }) => {
    requireShop(shop);
    const { runId, joined } = await runner.start(startedByOf(identity));
    await runs.waitFor(runRowId(runId), SYNC_REPLY_WAIT_MS, 250);
    return { ...(await runner.view(runId)), joined };
  });

  serveRoute(app, latestSyncRun, async () => ({ data: await runner.latest() }));

  serveRoute(app, syncOne, async ({ params }) => {
    const client = requireShop(shop);
    const mapping = await shopStore.findMapping(prisma, params.productName);
    if (!mapping) throw notFound(`"${params.productName}" is not mapped to a WooCommerce product`);
    const row = findRowByProduct((await sheet.read()).rows, mapping.productName);
    if (!row) throw notFound(`"${mapping.productName}" is not in the price sheet`);
    const wanted = pricesOfRow(row);
    if ('error' in wanted) throw badRequest(wanted.error);
    const item = await fromShop(
      () => client.updatePrices({ id: mapping.woocommerceId, parentId: mapping.parentId }, wanted.prices),
      `WooCommerce no longer has ${mapping.parentId ? 'variation' : 'product'} ${mapping.woocommerceId} (mapped to "${mapping.productName}"); it is not re-created`,
    );
    await shopStore.recordSynced(prisma, mapping.id, { regular_price: item.regular_price, sale_price: item.sale_price }, { permalink: item.permalink });
    return { success: true, productName: mapping.productName, woocommerceId: mapping.woocommerceId, regularPrice: item.regular_price, salePrice: item.sale_price };
  });
}
