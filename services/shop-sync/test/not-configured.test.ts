import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, startShopSystem, type ShopSystem } from './system';

/** No WooCommerce settings: the page's "not configured" state, edits that say so, actions refused clearly. */
describe('shop-sync without a shop configured', () => {
  let system: ShopSystem;
  const shop = (method: 'GET' | 'POST', url: string) => system.shop.app.inject({ method, url, headers: asAdmin });

  beforeAll(async () => {
    system = await startShopSystem('shop_sync_unconfigured', { shop: false });
  });
  afterAll(() => system?.stop());

  it('reports not configured, and every shop action says which settings are missing', async () => {
    expect((await shop('GET', '/api/woocommerce/status')).json()).toEqual({ configured: false, connected: false, error: null, count: null, storeUrl: null });
    for (const [method, url] of [['POST', '/api/woocommerce/sync'], ['POST', '/api/woocommerce/auto-map'], ['POST', '/api/woocommerce/export-to-sheets'], ['GET', '/api/woocommerce/products']] as const) {
      const reply = await shop(method, url);
      expect([reply.statusCode, reply.json().error]).toEqual([503, 'WooCommerce is not configured: set WOOCOMMERCE_URL, WOOCOMMERCE_CONSUMER_KEY and WOOCOMMERCE_CONSUMER_SECRET']);
    }
    expect((await system.shop.app.inject({ method: 'GET', url: '/internal/shop-sync/config-status', headers: { 'x-internal-identity': asAdmin['x-internal-identity'] } })).statusCode).toBe(403);
  });

  it("answers a sheet edit with 'not_configured'", async () => {
    const cells = system.sheetRows()[2];
    const reply = await system.pricing.app.inject({
      method: 'POST', url: '/api/sheets/update', headers: asAdmin,
      payload: { type: cells[0], parent: cells[1], woocommerceId: cells[2], product: cells[3], description: cells[4], regularPrice: '40000', salePrice: '', status: cells[7], stockStatus: cells[8], attributes: cells[9], categories: cells[10] },
    });
    expect(reply.json()).toMatchObject({ success: true, woocommerceSync: 'not_configured' });
    expect(system.woo.state.variations.get(102)!.regular_price).toBe('35000');
  });
});
