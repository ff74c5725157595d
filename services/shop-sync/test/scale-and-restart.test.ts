import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, largeCatalogue, startShopSystem, type ShopSystem } from './system';

const PRODUCT_COUNT = 1_000;

describe('shop-sync at scale and across a restart', () => {
  let system: ShopSystem;
  const shop = (method: 'GET' | 'POST', url: string) => system.shop.app.inject({ method, url, headers: asAdmin });

  beforeAll(async () => {
    system = await startShopSystem('shop_sync_scale', largeCatalogue(PRODUCT_COUNT));
  });
  afterAll(() => system?.stop());

  it(`syncs ${PRODUCT_COUNT} mapped products in at most 10 batch calls, counting each result`, async () => {
    const mapped = (await shop('POST', '/api/woocommerce/auto-map')).json();
    expect(mapped).toMatchObject({ mapped: PRODUCT_COUNT, failed: 0 });
    system.woo.journal.clear();
    const run = (await shop('POST', '/api/woocommerce/sync')).json();
    expect(run).toMatchObject({ status: 'finished', total: PRODUCT_COUNT, processed: PRODUCT_COUNT, synced: PRODUCT_COUNT, failed: 0, skipped: 0, batchCalls: 10 });
    const batches = system.woo.journal.list().filter((entry) => entry.method === 'POST' && entry.url.endsWith('/products/batch'));
    expect(batches).toHaveLength(10);
    expect(system.woo.state.products.get(101 + 999)!.regular_price).toBe(String(11000 + 999));
  });

  it('finishes a price push left pending by a stopped process once it runs again', async () => {
    await system.woo.app.inject({ method: 'POST', url: '/__sim/faults', payload: [{ kind: 'html', status: 502, pathPrefix: '/wp-json/wc/v3/products/150' }] });
    const cells = system.sheetRows().find((row) => row[2] === '150')!;
    const edit = await system.pricing.app.inject({
      method: 'POST', url: '/api/sheets/update', headers: asAdmin,
      payload: { type: cells[0], parent: cells[1], woocommerceId: cells[2], product: cells[3], description: cells[4], regularPrice: '55555', salePrice: '', status: cells[7], stockStatus: cells[8], attributes: cells[9], categories: cells[10] },
    });
    expect(edit.json().woocommerceSync).toBe('failed');
    await system.restartShop();
    system.woo.faults.clear();
    await expect.poll(() => system.woo.state.products.get(150)!.regular_price, { timeout: 60_000, interval: 250 }).toBe('55555');
    // The push's outcome is recorded after the shop answered it (the effect's done-transaction): a moment after the price shows there.
    await expect.poll(async () => (await shop('GET', '/api/woocommerce/price-pushes?limit=1')).json().data[0], { timeout: 10_000, interval: 100 }).toMatchObject({ productName: cells[3], outcome: 'success' });
  }, 120_000);
});
