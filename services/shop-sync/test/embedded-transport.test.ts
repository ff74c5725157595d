import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAdmin, startShopSystem, type ShopSystem } from './system';

/** The same price edit → shop path on the embedded run's bus (a durable queue in PostgreSQL, `make start`). */
describe('a price edit reaches the shop over the embedded transport', () => {
  let system: ShopSystem;

  beforeAll(async () => {
    system = await startShopSystem('shop_sync_embedded', { transport: 'embedded' });
  });
  afterAll(() => system?.stop());

  it("pushes each edit and answers 'success'", async () => {
    expect((await system.shop.app.inject({ method: 'POST', url: '/api/woocommerce/auto-map', headers: asAdmin })).json().mapped).toBe(14);
    const cells = system.sheetRows().find((row) => row[3] === 'PUBG Mobile UC - 1800 UC')!;
    const edit = (regularPrice: string) =>
      system.pricing.app.inject({
        method: 'POST', url: '/api/sheets/update', headers: asAdmin,
        payload: { type: cells[0], parent: cells[1], woocommerceId: cells[2], product: cells[3], description: cells[4], regularPrice, salePrice: '', status: cells[7], stockStatus: cells[8], attributes: cells[9], categories: cells[10] },
      });
    expect((await edit('96000')).json().woocommerceSync).toBe('success');
    expect(system.woo.state.variations.get(114)!.regular_price).toBe('96000');
    expect((await edit('97000')).json().woocommerceSync).toBe('success');
    expect(system.woo.state.variations.get(114)!.regular_price).toBe('97000');
  });
});
