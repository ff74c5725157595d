import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEnvelope, pricingPriceUpdated, runProgressEventOf, type EventEnvelope, type PriceRow, type RunProgress } from '@bo/proto';
import { SIMULATOR_KEY } from '../src/service';
import { asService } from '@bo/platform/testing/identity';
import { asAdmin, startShopSystem, type ShopSystem } from './system';

const row = (cells: string[]): PriceRow => ({
  type: cells[0], parent: cells[1], woocommerceId: cells[2], product: cells[3], description: cells[4], regularPrice: cells[5],
  salePrice: cells[6], status: cells[7], stockStatus: cells[8], attributes: cells[9], categories: cells[10],
});

describe('shop-sync with pricing, RabbitMQ and the WooCommerce simulator', () => {
  let system: ShopSystem;
  const shop = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => system.shop.app.inject({ method, url, payload, headers: asAdmin });
  const edit = (product: string, change: Partial<PriceRow>) => {
    const current = row(system.sheetRows().find((cells) => cells[3] === product)!);
    return system.pricing.app.inject({ method: 'POST', url: '/api/sheets/update', headers: asAdmin, payload: { ...current, ...change, originalProduct: product } });
  };
  const variation = (id: number) => system.woo.state.variations.get(id)!;
  const product = (id: number) => system.woo.state.products.get(id)!;
  const fault = (rule: object) => system.woo.app.inject({ method: 'POST', url: '/__sim/faults', payload: [rule] });

  beforeAll(async () => {
    system = await startShopSystem('shop_sync');
  });
  afterAll(() => system?.stop());
  beforeEach(() => system.woo.faults.clear());

  it('shows the shop connected with its product count, and its catalogue with variations', async () => {
    expect((await shop('GET', '/api/woocommerce/status')).json()).toEqual({ configured: true, connected: true, error: null, count: 8, storeUrl: system.wooUrl });
    const products = (await shop('GET', '/api/woocommerce/products')).json();
    expect(products.count).toBe(8);
    expect(products.data.find((item: { id: number }) => item.id === 102)).toMatchObject({ parentId: 101, name: 'Netflix Premium - 1 сар', sku: 'NFX-PREM-1', regularPrice: '35000' });
  });

  it('never gives the consumer key or secret away: not in the status, not in the config status', async () => {
    const gateway = asService('gateway');
    const replies = [
      (await shop('GET', '/api/woocommerce/status')).body,
      (await system.shop.app.inject({ method: 'GET', url: '/internal/shop-sync/config-status', headers: gateway })).body,
    ];
    expect(JSON.parse(replies[1]).items.map((item: { name: string; configured: boolean }) => [item.name, item.configured])).toEqual([
      ['WooCommerce store URL', true], ['WooCommerce consumer key', true], ['WooCommerce consumer secret', true],
    ]);
    for (const body of replies) {
      expect(body).not.toContain(SIMULATOR_KEY.secret);
      expect(body).not.toContain(SIMULATOR_KEY.key);
      expect(body).not.toContain(SIMULATOR_KEY.secret.slice(-8));
    }
  });

  it('validates the add form, checks the id with the shop, and finds a variation’s parent', async () => {
    expect((await shop('POST', '/api/woocommerce/mappings', { productName: 'Steam Wallet $20', woocommerceId: 'abc' })).json().error).toBe('Invalid body: woocommerceId: must be a number');
    expect((await shop('POST', '/api/woocommerce/mappings', { productName: '', woocommerceId: 116 })).statusCode).toBe(400);
    const unknown = await shop('POST', '/api/woocommerce/mappings', { productName: 'Steam Wallet $20', woocommerceId: 4242 });
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, 'WooCommerce has no product or variation with id 4242']);
    // A manual mapping to the wrong product: auto-map below must keep it and say so.
    const manual = await shop('POST', '/api/woocommerce/mappings', { productName: 'Steam Wallet $20', woocommerceId: '115' });
    expect(manual.json()).toMatchObject({ success: true, replaced: false, data: { productName: 'Steam Wallet $20', woocommerceId: 115, parentId: null, mappedBy: 'manual' } });
    const variationMapping = await shop('POST', '/api/woocommerce/mappings', { productName: 'PUBG Mobile UC - 325 UC', woocommerceId: 112 });
    expect(variationMapping.json().data).toMatchObject({ woocommerceId: 112, parentId: 110, permalink: expect.stringContaining('variation_id=112') });
  });

  it('auto-maps by the sheet’s id, else SKU, else name; keeps the manual mapping and reports what it cannot find', async () => {
    const reply = (await shop('POST', '/api/woocommerce/auto-map')).json();
    const by = (name: string) => reply.results.find((result: { productName: string }) => result.productName === name);
    expect(by('Netflix Premium - 1 сар')).toMatchObject({ woocommerceId: 102, matchedBy: 'id', outcome: 'mapped' });
    expect(by('Spotify Premium - 3 сар')).toMatchObject({ woocommerceId: 107, matchedBy: 'sku', outcome: 'mapped' });
    expect(by('Mobile Legends 86 diamonds')).toMatchObject({ woocommerceId: 115, matchedBy: 'name', outcome: 'mapped' });
    expect(by('Steam Wallet $20')).toMatchObject({ woocommerceId: 115, outcome: 'kept_manual', message: 'Kept the manual mapping to 115; by its WooCommerce id it would be 116' });
    expect(by('PUBG Mobile UC - 325 UC')).toMatchObject({ outcome: 'unchanged' });
    expect(by('Netflix Standard 1 сар')).toMatchObject({ outcome: 'not_found', woocommerceId: null });
    expect(by('HBO Max 1 сар').message).toBe('Not found in the shop: WooCommerce has no product 150; no SKU "HBO-1M"; no product of that name');
    expect(by('Netflix Premium')).toBeUndefined(); // a variable product's own row has no price to push
    expect(reply).toMatchObject({ mapped: 12, failed: 2, kept: 1 });
    const mappings = (await shop('GET', '/api/woocommerce/mappings')).json().data;
    expect(mappings.find((m: { productName: string }) => m.productName === 'Steam Wallet $20')).toMatchObject({ woocommerceId: 115, mappedBy: 'manual' });
    // Put the manual mapping right for the rest of the suite; same id again is "unchanged".
    expect((await shop('POST', '/api/woocommerce/mappings', { productName: 'Steam Wallet $20', woocommerceId: 116 })).json().replaced).toBe(true);
    expect((await shop('POST', '/api/woocommerce/auto-map')).json()).toMatchObject({ mapped: 0, failed: 2, kept: 0 });
  });

  it('syncs what differs in batches: a variation and a simple product, the rest skipped, failures named', async () => {
    // A mapped product removed from the shop: its push must fail by name, and it is not re-created.
    system.woo.state.products.delete(117);
    system.woo.journal.clear();
    // A watcher of our own on the bus: the sync's progress is published there, as it moves.
    const progress: RunProgress[] = [];
    const watcher = await system.bus.consume({ service: 'sync-progress-watch', bindings: [runProgressEventOf('shop-sync').name] }, async ({ envelope }) => {
      progress.push((envelope as EventEnvelope<RunProgress>).payload);
    });
    const run = (await shop('POST', '/api/woocommerce/sync')).json();
    expect(run).toMatchObject({ status: 'finished', total: 14, synced: 13, failed: 1, skipped: 0 });
    expect(run.failures).toEqual([{ productName: 'Free Fire 520 Diamonds', error: expect.stringContaining('woocommerce_rest_product_invalid_id') }]);
    // Products in one batch; each variable product's variations in its own.
    const batches = system.woo.journal.list().filter((entry) => entry.url.includes('/batch'));
    expect(run.batchCalls).toBe(batches.length);
    // Every call to the shop is on shop-sync's /metrics, by operation and outcome.
    const metrics = (await system.shop.app.inject({ method: 'GET', url: '/metrics' })).body;
    const batchesCounted = /^outside_call_duration_seconds_count\{service="shop-sync",system="woocommerce",operation="batchUpdatePrices",outcome="ok"\} (\d+)$/m.exec(metrics);
    expect(Number(batchesCounted?.[1])).toBeGreaterThanOrEqual(batches.length);
    expect(metrics).toMatch(/^outside_breaker_state\{system="woocommerce",service="shop-sync"\} 0$/m);
    expect(batches.map((entry) => new URL(entry.url, 'http://x').pathname).sort()).toEqual([
      '/wp-json/wc/v3/products/101/variations/batch', '/wp-json/wc/v3/products/105/variations/batch', '/wp-json/wc/v3/products/110/variations/batch', '/wp-json/wc/v3/products/batch',
    ]);
    await vi.waitFor(() => expect(progress.some((event) => event.runId === run.id && event.status === 'completed')).toBe(true), { timeout: 5_000 });
    const seen = progress.filter((event) => event.runId === run.id);
    expect(seen[0]).toMatchObject({ status: 'pending', kind: 'woocommerce-sync' });
    expect(seen.at(-1)).toMatchObject({ status: 'completed', progress: { current: 14, total: 14, counters: { failed: 1 } } });
    expect(seen.map((event) => event.version)).toEqual([...seen.map((event) => event.version)].sort((a, b) => a - b));
    await watcher.stop();
    expect(variation(102)).toMatchObject({ regular_price: '36000', sale_price: '' });
    expect(variation(104)).toMatchObject({ regular_price: '189000', sale_price: '179000' });
    expect(product(115)).toMatchObject({ regular_price: '7000' });
    const mapping = (await shop('GET', '/api/woocommerce/mappings')).json().data.find((m: { productName: string }) => m.productName === 'Netflix Premium - 3 сар');
    expect(mapping).toMatchObject({ lastSyncedPrice: '99000', lastSyncedRegularPrice: '99000', lastSyncedSalePrice: '', lastSynced: expect.any(String) });
    // Nothing changed since: everything is skipped but the failed one, without a product batch for the rest.
    const again = (await shop('POST', '/api/woocommerce/sync')).json();
    expect(again).toMatchObject({ status: 'finished', synced: 0, failed: 1, skipped: 13, batchCalls: 1 });
    expect((await shop('GET', '/api/woocommerce/sync-runs/latest')).json().data).toMatchObject({ id: again.id, status: 'finished' });
    // Two operators pressing Sync at once get the same run: one set of batch calls.
    system.woo.journal.clear();
    const [first, second] = await Promise.all([shop('POST', '/api/woocommerce/sync'), shop('POST', '/api/woocommerce/sync')]);
    expect(first.json().id).toBe(second.json().id);
    // One started it, the other's answer says it joined the sync already running.
    expect([first.json().joined, second.json().joined].sort()).toEqual([false, true]);
    expect(system.woo.journal.list().filter((entry) => entry.url.includes('/batch'))).toHaveLength(1);
    // The sync is a platform run: Background work shows it, with the counts as its progress.
    const asRun = (await shop('GET', `/api/admin/runs/${again.id}`)).json();
    expect(asRun).toMatchObject({ id: again.id, kind: 'woocommerce-sync', status: 'completed', startedBy: expect.stringMatching(/^admin:/), progress: { current: 14, total: 14, counters: { skipped: 13, failed: 1 } } });
    expect(asRun.steps.map((step: { name: string }) => step.name)).toEqual(['plan', 'batch-1']);
    // A run whose process died (its lease ran out) is joined by the next press and taken up here, not left hanging.
    const deadId = randomUUID();
    await system.shop.prisma.$executeRawUnsafe(
      `INSERT INTO shop_sync.runs (id, kind, status, started_by, exclusive_key, attempts, lease_owner, lease_expires_at, started_at)
       VALUES ($1::uuid, 'woocommerce-sync', 'in_progress', 'admin:gone', 'woocommerce-sync', 1, 'gone-host:1:x', now() - interval '1 second', now())`,
      deadId,
    );
    const after = (await shop('POST', '/api/woocommerce/sync')).json();
    expect(after).toMatchObject({ id: `shop-sync.${deadId}`, status: 'finished', joined: true });
    expect((await shop('GET', `/api/admin/runs/${after.id}`)).json()).toMatchObject({ attempts: 2, startedBy: 'admin:gone' });
    expect(product(117)).toBeUndefined();
  });

  it('cancels a sync mid-batch at once, keeps no cut-off batch, and a retry sends it again', async () => {
    // Every mapped product differs from what was last synced: the sync has batches to send.
    await system.shop.prisma.$executeRawUnsafe(`UPDATE shop_sync.woocommerce_product_mapping SET last_synced_regular_price = NULL`);
    // The shop holds the product batch until the test lets it go.
    const held = system.woo.faults.add({ kind: 'hold', pathPrefix: '/wp-json/wc/v3/products/batch', times: 1 });
    const pressed = shop('POST', '/api/woocommerce/sync');
    let runId = '';
    await expect
      .poll(async () => {
        const latest = (await shop('GET', '/api/woocommerce/sync-runs/latest')).json().data;
        runId = latest?.status === 'running' ? latest.id : '';
        return runId;
      }, { timeout: 5_000 })
      .toMatch(/^shop-sync\./);
    await expect.poll(async () => (await shop('GET', `/api/admin/runs/${runId}`)).json().steps.map((step: { name: string }) => step.name), { timeout: 5_000 }).toContain('plan');
    await expect.poll(() => system.woo.faults.held().length, { timeout: 20_000 }).toBe(1); // the product batch is out, held by the shop
    expect((await shop('POST', `/api/admin/runs/${runId}/cancel`)).json()).toMatchObject({ success: true, run: { cancelRequested: true } });
    expect((await pressed).json()).toMatchObject({ id: runId, status: 'cancelled' });
    // Cancelled while the shop still held the batch: the cancel did not wait for the shop's answer.
    expect(system.woo.faults.held()).toHaveLength(1);
    system.woo.faults.release(held.id);
    const cancelled = (await shop('GET', `/api/admin/runs/${runId}`)).json();
    expect(cancelled.steps.map((step: { name: string }) => step.name)).not.toContain('batch-1');
    const retried = (await shop('POST', `/api/admin/runs/${runId}/retry`)).json();
    expect(retried).toMatchObject({ success: true, run: { status: 'pending' } });
    await expect.poll(async () => (await shop('GET', '/api/woocommerce/sync-runs/latest')).json().data, { timeout: 20_000 }).toMatchObject({ id: runId, status: 'finished', failed: 1 });
    const mappings = (await shop('GET', '/api/woocommerce/mappings')).json().data as { lastSyncedRegularPrice: string | null }[];
    expect(mappings.filter((mapping) => mapping.lastSyncedRegularPrice === null)).toHaveLength(1); // the product gone from the shop
  });

  it('reconciles: lists shop prices that differ from the sheet with a fix, and reports a product missing in the shop', async () => {
    system.woo.state.variations.get(113)!.regular_price = '37000'; // someone changed it in the shop
    const check = (await shop('GET', '/api/woocommerce/reconciliation')).json();
    expect(check.differences).toEqual([{ productName: 'PUBG Mobile UC - 660 UC', woocommerceId: 113, sheetRegularPrice: '38000', sheetSalePrice: '', shopRegularPrice: '37000', shopSalePrice: '' }]);
    expect(check.missing).toEqual([{ productName: 'Free Fire 520 Diamonds', woocommerceId: 117 }]);
    expect(check.checked).toBe(14);
    const fix = await shop('POST', `/api/woocommerce/sync/${encodeURIComponent('PUBG Mobile UC - 660 UC')}`);
    expect(fix.json()).toEqual({ success: true, productName: 'PUBG Mobile UC - 660 UC', woocommerceId: 113, regularPrice: '38000', salePrice: '' });
    expect((await shop('GET', '/api/woocommerce/reconciliation')).json().differences).toEqual([]);
    const gone = await shop('POST', `/api/woocommerce/sync/${encodeURIComponent('Free Fire 520 Diamonds')}`);
    expect([gone.statusCode, gone.json().error]).toEqual([404, 'WooCommerce no longer has product 117 (mapped to "Free Fire 520 Diamonds"); it is not re-created']);
    expect(product(117)).toBeUndefined();
    expect((await shop('DELETE', `/api/woocommerce/mappings/${encodeURIComponent('Free Fire 520 Diamonds')}`)).json()).toEqual({ success: true });
    expect((await shop('DELETE', `/api/woocommerce/mappings/${encodeURIComponent('Free Fire 520 Diamonds')}`)).statusCode).toBe(404);
  });

  it('exports the shop into the sheet: rows found by id, else SKU, else name are replaced, new ones appended', async () => {
    system.woo.state.products.get(116)!.sku = 'STEAM-20-NEW'; // found by its id still
    await system.woo.app.inject({ method: 'POST', url: '/wp-json/wc/v3/products', headers: { authorization: `Basic ${Buffer.from(`${SIMULATOR_KEY.key}:${SIMULATOR_KEY.secret}`).toString('base64')}` }, payload: { name: 'Roblox 800 Robux', sku: 'RBX-800', regular_price: '32000' } });
    const before = system.sheetRows().length - 1;
    const reply = (await shop('POST', '/api/woocommerce/export-to-sheets')).json();
    // 8 products (117 was removed, Roblox added) and 9 variations; only Roblox is new to the sheet.
    expect(reply).toEqual({ success: true, productsExported: 17, totalRows: before + 1, sheetName: 'Sheet1' });
    const rows = system.sheetRows();
    // Spotify's variations were found by SKU and now carry their ids; Mobile Legends by its name.
    expect(rows.find((cells) => cells[4] === 'SPOT-PREM-1')).toEqual(['variation', '105', '106', 'Spotify Premium - 1 сар', 'SPOT-PREM-1', '15000', '', 'publish', 'instock', 'Хугацаа: 1 сар', 'Стриминг']);
    expect(rows.find((cells) => cells[3].toLowerCase() === 'mobile legends 86 diamonds')!.slice(2, 4)).toEqual(['115', 'Mobile Legends 86 Diamonds']);
    expect(rows.find((cells) => cells[2] === '116')![4]).toBe('STEAM-20-NEW');
    expect(rows.at(-1)!.slice(0, 6)).toEqual(['simple', '', String(Math.max(...system.woo.state.products.keys())), 'Roblox 800 Robux', 'RBX-800', '32000']);
    // The price list serves what was written.
    expect((await system.pricing.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json().count).toBe(before + 1);
  });

  it('finds orders by id and by the exact billing e-mail or phone', async () => {
    const order = [...system.woo.state.orders.values()][0];
    expect((await shop('GET', `/api/woocommerce/order/${order.id}`)).json().data).toMatchObject({ id: order.id, customer: { email: 'bat.erdene@example.mn' } });
    expect((await shop('GET', '/api/woocommerce/order/99999')).json()).toEqual({ error: 'Order 99999 not found in WooCommerce' });
    const byEmail = (await shop('POST', '/api/woocommerce/order/search', { email: 'BAT.ERDENE@example.mn' })).json();
    expect(byEmail.count).toBe(2);
    expect((await shop('POST', '/api/woocommerce/order/search', { phone: '8800 1122' })).json().data.map((o: { customer: { name: string } }) => o.customer.name)).toEqual(['Сарангэрэл Дорж']);
    expect((await shop('POST', '/api/woocommerce/order/search', {})).json().error).toBe('Invalid body: body: email or phone is required');
  });

  it('pushes a sheet edit to the shop and says so in the edit’s reply; an unmapped product says not mapped', async () => {
    // How soon (edit → shop, edit → reply) is bench/shop-sync.ts's figure; here, that the reply waited for the push.
    const reply = await edit('Netflix Premium - 1 сар', { regularPrice: '37000', salePrice: '34000' });
    expect(reply.json()).toMatchObject({ success: true, woocommerceSync: 'success' });
    expect(variation(102)).toMatchObject({ regular_price: '37000', sale_price: '34000' });
    expect((await edit('Netflix Standard 1 сар', { regularPrice: '29000' })).json().woocommerceSync).toBe('no_mapping');
    const pushes = (await shop('GET', '/api/woocommerce/price-pushes?limit=2')).json().data;
    expect(pushes.map((push: { productName: string; outcome: string }) => [push.productName, push.outcome])).toEqual([['Netflix Standard 1 сар', 'no_mapping'], ['Netflix Premium - 1 сар', 'success']]);
  });

  it('answers failed when the shop keeps failing past the wait, and the push still completes once the shop is back', async () => {
    await fault({ kind: 'html', status: 503, pathPrefix: '/wp-json/wc/v3/products/108' });
    const reply = await edit('YouTube Premium 1 сар', { regularPrice: '21000' });
    // Answered at its wait while the shop was still failing (it fails until the faults are cleared below).
    expect(reply.json().woocommerceSync).toBe('failed');
    expect(system.woo.faults.list()).toMatchObject([{ pathPrefix: '/wp-json/wc/v3/products/108', fired: expect.any(Number) }]);
    expect(system.woo.faults.list()[0].fired).toBeGreaterThan(0);
    const pending = (await shop('GET', '/api/woocommerce/price-pushes?limit=1')).json().data[0];
    // The shop's own words, and once its breaker opened, that calls to it wait.
    expect(pending).toMatchObject({ productName: 'YouTube Premium 1 сар', outcome: 'pending', error: expect.stringMatching(/^WooCommerce answered 503 \(not a WooCommerce answer: an error page\)(; calls to WooCommerce are paused for \d+ s after repeated failures)?$/) });
    system.woo.faults.clear();
    await expect.poll(async () => (await shop('GET', '/api/woocommerce/price-pushes?limit=1')).json().data[0].outcome, { timeout: 20_000, interval: 250 }).toBe('success');
    expect(product(108)).toMatchObject({ regular_price: '21000' });
  });

  it('refuses at once what retrying cannot fix: a rejected key fails the edit with the shop’s words', async () => {
    await fault({ kind: 'status', status: 401, pathPrefix: '/wp-json/wc/v3', body: { code: 'woocommerce_rest_authentication_error', message: 'Consumer secret is invalid.', data: { status: 401 } } });
    expect((await shop('GET', '/api/woocommerce/status')).json()).toMatchObject({ configured: true, connected: false, count: null, error: 'WooCommerce answered 401: Consumer secret is invalid. (woocommerce_rest_authentication_error)' });
    expect((await edit('Spotify Premium - 1 сар', { regularPrice: '16000' })).json().woocommerceSync).toBe('failed');
    const push = (await shop('GET', '/api/woocommerce/price-pushes?limit=1')).json().data[0];
    expect(push).toMatchObject({ outcome: 'failed', error: expect.stringContaining('Consumer secret is invalid.') });
    const sync = await shop('POST', '/api/woocommerce/sync');
    expect(sync.json()).toMatchObject({ status: 'failed', batchCalls: 0, error: 'WooCommerce answered 401: Consumer secret is invalid. (woocommerce_rest_authentication_error)' });
  });

  it('never lets an older revision overwrite a newer one, whatever order the events arrive in', async () => {
    const mapping = (await shop('GET', '/api/woocommerce/mappings')).json().data.find((m: { productName: string }) => m.productName === 'PUBG Mobile UC - 60 UC');
    const base = row(system.sheetRows().find((cells) => cells[3] === 'PUBG Mobile UC - 60 UC')!);
    const event = (revision: number, price: string) => createEnvelope(pricingPriceUpdated, { product: base.product, revision, row: { ...base, regularPrice: price }, previous: base });
    // Revision 1001 lands first, then the older 1000 (a retry from long ago): the shop keeps 1001's price.
    const newer = event(1001, '4600');
    const older = event(1000, '4500');
    await system.publish(newer);
    await expect.poll(() => variation(mapping.woocommerceId).regular_price, { timeout: 10_000 }).toBe('4600');
    await system.publish(older);
    await system.publish(newer); // a duplicate delivery has no second effect either
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(variation(mapping.woocommerceId).regular_price).toBe('4600');
    const pushes = (await shop('GET', '/api/woocommerce/price-pushes?limit=50')).json().data.filter((p: { productName: string }) => p.productName === base.product);
    expect(pushes.map((p: { revision: number }) => p.revision)).toEqual([1001]);
  });
});
