import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort, listen } from '@bo/sim-kit';
import { buildWooCommerceSimulator, defaultSeed } from '@bo/sim-woocommerce';
import { outsideSystemForTest } from '@bo/platform/testing/outside';
import { WooCommerceClient, WooCommerceError, wooCommerceSystem, type WooSettings } from '../src/clients/woocommerce';
import { SIMULATOR_KEY } from '../src/service';

/** The client against the WooCommerce simulator, with each of its faults (external-apis.md §3). */
describe('WooCommerce REST v3 client', () => {
  const sim = buildWooCommerceSimulator({ seed: defaultSeed() });
  let settings: WooSettings;
  const client = (overrides: Partial<WooSettings> = {}, retry?: { baseDelayMs: number }) => {
    const shop = { ...settings, ...overrides };
    const system = wooCommerceSystem(shop);
    return new WooCommerceClient(outsideSystemForTest({ ...system, retry: { ...system.retry, ...retry } }), shop);
  };
  const faults = (rules: object[]) => sim.app.inject({ method: 'POST', url: '/__sim/faults', payload: rules });
  const apiCalls = () => sim.journal.list().filter((entry) => entry.url.startsWith('/wp-json/'));

  beforeAll(async () => {
    const url = await listen(sim.app);
    settings = { storeUrl: url, consumerKey: SIMULATOR_KEY.key, consumerSecret: SIMULATOR_KEY.secret, keysInQuery: false, timeoutMs: 2_000 };
  });
  afterAll(() => sim.app.close());
  beforeEach(async () => {
    await sim.app.inject({ method: 'POST', url: '/__sim/reset' });
    sim.faults.clear();
    sim.journal.clear();
  });

  it("uses the simulator's default read_write key, as Basic auth or as query parameters", async () => {
    expect(sim.state.keys.find((key) => key.permission === 'read_write')).toMatchObject({ consumer_key: SIMULATOR_KEY.key, consumer_secret: SIMULATOR_KEY.secret });
    expect(await client().countProducts()).toBe(8);
    expect(await client({ keysInQuery: true }).countProducts()).toBe(8);
    expect(apiCalls()[0].url).toContain(`consumer_key=${SIMULATOR_KEY.key}`);
  });

  it('reads every page of a long list through X-WP-TotalPages', async () => {
    const creates = Array.from({ length: 230 }, (_, i) => ({ name: `Bulk ${i}`, sku: `BULK-${i}`, regular_price: String(1000 + i) }));
    for (let start = 0; start < creates.length; start += 100) {
      await sim.app.inject({ method: 'POST', url: '/wp-json/wc/v3/products/batch', headers: { authorization: basic() }, payload: { create: creates.slice(start, start + 100) } });
    }
    sim.journal.clear();
    const products = await client().listProducts();
    expect(products).toHaveLength(238);
    expect(new Set(products.map((product) => product.id)).size).toBe(238);
    expect(apiCalls().map((entry) => new URL(entry.url, 'http://x').searchParams.get('page')).sort()).toEqual(['1', '2', '3']);
  });

  it('names the three 401s: unknown key, wrong secret, read-only key writing', async () => {
    await expect(client({ consumerKey: 'ck_unknown' }).countProducts()).rejects.toMatchObject({ status: 401, code: 'woocommerce_rest_cannot_view' });
    await expect(client({ consumerSecret: 'cs_wrong' }).countProducts()).rejects.toMatchObject({ status: 401, message: expect.stringContaining('Consumer secret is invalid.') });
    const readOnly = sim.state.keys.find((key) => key.permission === 'read')!;
    const reader = client({ consumerKey: readOnly.consumer_key, consumerSecret: readOnly.consumer_secret });
    expect(await reader.countProducts()).toBe(8);
    const error = await reader.updatePrices({ id: 115, parentId: null }, { regular_price: '7000', sale_price: '' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WooCommerceError);
    expect((error as WooCommerceError).retryable).toBe(false);
    expect((error as WooCommerceError).message).toMatch(/^WooCommerce answered 401: .*write permissions/);
    // A 401 is not retried.
    expect(apiCalls().filter((entry) => entry.method === 'PUT')).toHaveLength(1);
  });

  it('retries a 429 after its Retry-After, and 5xx HTML pages with back-off, then succeeds', async () => {
    await faults([{ kind: 'status', status: 429, headers: { 'retry-after': '1' }, body: { code: 'too_many', message: 'Slow down' }, times: 1 }]);
    const started = Date.now();
    expect(await client().countProducts()).toBe(8);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    sim.journal.clear();
    await faults([{ kind: 'html', status: 502, times: 2 }]);
    expect(await client({}, { baseDelayMs: 20 }).countProducts()).toBe(8);
    expect(apiCalls().map((entry) => entry.status)).toEqual([200, 502, 502]);
  });

  it('gives up with a clear error: a 5xx that persists, a Retry-After too long to wait, a shop that does not answer in time', async () => {
    await faults([{ kind: 'html', status: 503 }]);
    const persistent = await client({}, { baseDelayMs: 10 }).countProducts().catch((e: unknown) => e as WooCommerceError);
    expect(persistent).toMatchObject({ status: 503, retryable: true, message: 'WooCommerce answered 503 (not a WooCommerce answer: an error page)' });
    expect(apiCalls()).toHaveLength(3);
    sim.faults.clear();
    await faults([{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }]);
    await expect(client().countProducts()).rejects.toThrow('WooCommerce is limiting requests (429); it asks to wait 3600 s');
    sim.faults.clear();
    await faults([{ kind: 'slow', delayMs: 1_500 }]);
    await expect(client({ timeoutMs: 500 }, { baseDelayMs: 10 }).countProducts()).rejects.toThrow('WooCommerce did not answer within 0.5 s');
  });

  it('says where it could not connect', async () => {
    const closed = await freePort();
    await expect(client({ storeUrl: `http://127.0.0.1:${closed}` }, { baseDelayMs: 5 }).countProducts()).rejects.toThrow(`Could not reach WooCommerce at 127.0.0.1:${closed}: ECONNREFUSED`);
  });

  it('sends prices as strings and batch-updates variations with per-item results, in order', async () => {
    const updated = await client().updatePrices({ id: 108, parentId: null }, { regular_price: '20000', sale_price: '' });
    expect(updated).toMatchObject({ id: 108, regular_price: '20000', sale_price: '', price: '20000' });
    const results = await client().batchUpdatePrices(101, [
      { id: 102, regular_price: '36000', sale_price: '' },
      { id: 999, regular_price: '1', sale_price: '' },
      { id: 104, regular_price: '189000', sale_price: '179000' },
    ]);
    expect(results.map((result) => result.ok)).toEqual([true, false, true]);
    expect(results[1]).toMatchObject({ id: 999, ok: false, error: expect.stringContaining('woocommerce_rest_product_variation_invalid_id') });
    expect(sim.state.variations.get(104)).toMatchObject({ regular_price: '189000', sale_price: '179000' });
    await expect(client().batchUpdatePrices(null, Array.from({ length: 101 }, (_, i) => ({ id: i + 1, regular_price: '1', sale_price: '' })))).rejects.toThrow('at most 100');
  });

  it('reads orders by id and by search term, and a missing order is a 404', async () => {
    const [first] = [...sim.state.orders.values()];
    expect((await client().getOrder(first.id)).id).toBe(first.id);
    await expect(client().getOrder(99_999)).rejects.toMatchObject({ status: 404, code: 'woocommerce_rest_shop_order_invalid_id' });
    const found = await client().searchOrders('bat.erdene@example.mn', 50);
    expect(found.length).toBeGreaterThanOrEqual(2);
  });

  function basic() {
    return `Basic ${Buffer.from(`${SIMULATOR_KEY.key}:${SIMULATOR_KEY.secret}`).toString('base64')}`;
  }
});
