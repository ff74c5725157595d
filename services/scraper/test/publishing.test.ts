import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { asService } from '@bo/platform/testing/identity';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import type { ProductMappingView, ScrapedProduct, ScrapeJob } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildMarketplaceSimulator, DEFAULT_SCRAPE_CONFIG } from '@bo/sim-marketplace';
import { buildWooCommerceSimulator } from '@bo/sim-woocommerce';
import shopSync, { SIMULATOR_KEY } from '@bo/shop-sync/service';
import { priceInMnt } from '@bo/proto/scraper-prices';
import scraper from '../src/service';

/**
 * Issue 22's publishing: scraped variations into the WooCommerce simulator's shop through
 * shop-sync (the scraper never calls the shop), their prices, status, removal, the three syncs and
 * a rescrape, and a publish cut off half-way finished without a second product in the shop.
 */
describe('the scraper: publishing to the shop through shop-sync', () => {
  let system: TestSystem;
  let siteUrl: string;
  let marketplaceId: number;
  const site = buildMarketplaceSimulator();
  const woo = buildWooCommerceSimulator({ seed: { products: [], orders: [] } });
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => system.call('scraper', method, path, body);
  const products = async (): Promise<ScrapedProduct[]> => (await call('GET', '/api/scraper/products?page=1&limit=200')).body.data;
  const mappings = async (): Promise<ProductMappingView[]> => (await call('GET', '/api/scraper/mappings')).body.data;
  const shopProducts = () => [...woo.state.products.values()];
  const gameProducts = (name: string) => shopProducts().filter((product) => product.name === name);
  const scrapeAll = async () => {
    const started = await call('POST', `/api/scraper/scrape/${marketplaceId}`, { startPage: 1, endPage: 3 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await eventually(async () => {
      const job = ((await call('GET', '/api/scraper/jobs')).body.data as ScrapeJob[]).find((one) => one.id === started.body.jobId);
      return job?.status === 'completed' ? job : null;
    }, 60_000, 'the scrape to complete');
  };
  const setPricing = async (rate: number, commissionRate: number) => {
    expect((await call('PUT', '/api/scraper/exchange-rate', { rate })).status).toBe(200);
    expect((await call('PUT', '/api/scraper/commission-rate', { commissionRate })).status).toBe(200);
  };

  beforeAll(async () => {
    siteUrl = await listen(site.app);
    const wooUrl = await listen(woo.app);
    system = await startTestSystem('scraper_publishing', { services: ['scraper', 'shop-sync'] });
    await system.start(shopSync as never, {
      WOOCOMMERCE_URL: wooUrl, WOOCOMMERCE_CONSUMER_KEY: SIMULATOR_KEY.key, WOOCOMMERCE_CONSUMER_SECRET: SIMULATOR_KEY.secret, WOOCOMMERCE_TIMEOUT_MS: '3000', PRICING_URL: 'http://127.0.0.1:9',
    });
    await system.start(scraper as never, { SCRAPER_ALLOWED_HOSTS: new URL(siteUrl).host, SCRAPER_PAGE_TIMEOUT_MS: '8000' });
    const created = await call('POST', '/api/scraper/marketplaces', {
      name: 'GameMarket', url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: JSON.stringify(DEFAULT_SCRAPE_CONFIG), paginationEnabled: true, paginationParam: 'page',
    });
    marketplaceId = created.body.data.id;
    await scrapeAll();
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
    await site.app.close();
    await woo.app.close();
  });

  it('publishes a variation at its MNT price under its game’s variable product, again without a second one, private and public, and unpublishes it (the game’s product with its last variation)', { timeout: 60_000 }, async () => {
    await setPricing(3500, 10);
    const [first, second] = await products();
    const published = await call('POST', `/api/scraper/products/${first.id}/publish`);
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ success: true, message: 'Product published to WooCommerce', data: { scrapedProductId: first.id, status: 'publish', publishedPriceMnt: priceInMnt(first.priceUsd, 10, 3500) } });
    const { woocommerceProductId: parentId, woocommerceVariationId: variationId } = published.body.data as ProductMappingView;
    const parent = woo.state.products.get(parentId)!;
    expect(parent).toMatchObject({ name: 'Genshin Impact', type: 'variable', status: 'publish', sku: expect.stringMatching(/^scraper-game-/) });
    expect(woo.state.variations.get(variationId)).toMatchObject({ parent_id: parentId, regular_price: String(priceInMnt(first.priceUsd, 10, 3500)), status: 'publish' });

    // Again: the same product and variation, nothing new in the shop.
    const again = await call('POST', `/api/scraper/products/${first.id}/publish`);
    expect(again.body.data).toMatchObject({ woocommerceProductId: parentId, woocommerceVariationId: variationId });
    expect(gameProducts('Genshin Impact')).toHaveLength(1);
    expect(woo.state.variationsOf(parentId)).toHaveLength(1);

    // A second variation of the game goes under the same product, its option added to the attribute.
    const other = await call('POST', `/api/scraper/products/${second.id}/publish`);
    expect(other.body.data.woocommerceProductId).toBe(parentId);
    expect(woo.state.variationsOf(parentId)).toHaveLength(2);
    const options = parent.attributes.flatMap((attribute) => (attribute as { options?: string[] }).options ?? []);
    for (const product of [first, second]) expect(options).toContain(product.variationValue ?? product.productName);
    expect((await products()).find((product) => product.id === first.id)).toMatchObject({ woocommerceParentId: parentId, woocommerceVariationId: variationId });
    expect((await mappings()).map((mapping) => mapping.scrapedProductId).sort()).toEqual([first.id, second.id].sort());

    const hidden = await call('POST', `/api/scraper/products/${first.id}/toggle-status`, { status: 'draft' });
    expect(hidden.body).toMatchObject({ message: 'Product is now private', data: { status: 'draft' } });
    expect(woo.state.variations.get(variationId)!.status).toBe('draft');
    // Publishing it again (a price update) keeps it private.
    await call('POST', `/api/scraper/products/${first.id}/publish`);
    expect(woo.state.variations.get(variationId)!.status).toBe('draft');
    const shown = await call('POST', `/api/scraper/products/${first.id}/toggle-status`, { status: 'publish' });
    expect(shown.body.message).toBe('Product is now public');
    expect(woo.state.variations.get(variationId)!.status).toBe('publish');
    expect((await call('POST', `/api/scraper/products/${first.id}/toggle-status`, { status: 'hidden' })).status).toBe(400);

    const removed = await call('POST', `/api/scraper/products/${first.id}/unpublish`);
    expect(removed.body).toEqual({ success: true, message: 'Product unpublished successfully' });
    expect(woo.state.variations.has(variationId)).toBe(false);
    expect(woo.state.products.has(parentId)).toBe(true);
    expect((await call('POST', `/api/scraper/products/${first.id}/unpublish`)).status).toBe(404);
    await call('POST', `/api/scraper/products/${second.id}/unpublish`);
    expect(woo.state.products.has(parentId)).toBe(false);
    expect(await mappings()).toEqual([]);
    expect((await products()).find((product) => product.id === first.id)).toMatchObject({ woocommerceParentId: null, woocommerceVariationId: null });
  });

  it('finishes publishes cut off half-way (between the shop\'s two steps; the shop has it, nobody recorded it; both services restarted) and makes nothing twice when the same products are published many times at once', { timeout: 90_000 }, async () => {
    const all = await products();
    const [cut, , between] = all;
    // A publish cut off between the shop's two steps: the game's product made, then the shop fails to
    // store the variation (it answers 500, to every try): the game's product is left without it, nothing recorded.
    const stored = woo.state.variations;
    const store = stored.set.bind(stored);
    stored.set = () => {
      throw new Error('the shop went away while storing the variation');
    };
    const cutBetween = await call('POST', `/api/scraper/products/${between.id}/publish`).finally(() => (stored.set = store));
    expect(cutBetween.status, JSON.stringify(cutBetween.body)).toBeGreaterThanOrEqual(500);
    expect(gameProducts('Genshin Impact')).toHaveLength(1);
    expect(woo.state.variationsOf(gameProducts('Genshin Impact')[0].id)).toEqual([]);
    expect(await mappings()).toEqual([]);
    // A try that reached the shop and was never recorded: shop-sync placed it, the scraper died before writing it down.
    const placed = await fetch(`${system.url('shop-sync')}/internal/shop-sync/listings`, {
      method: 'POST',
      headers: { ...asService('scraper'), 'content-type': 'application/json' },
      body: JSON.stringify({ scrapedProductId: cut.id, gameName: cut.gameName, attributeName: cut.attributeName ?? 'Option', variationValue: cut.variationValue ?? cut.productName, regularPrice: '1000', status: 'publish' }),
    });
    expect(placed.status).toBe(200);
    const half = await placed.json();
    expect(half.adopted).toBe(false);
    expect(await mappings()).toEqual([]);
    await system.restart('shop-sync');
    await system.restart('scraper');

    const finished = await call('POST', `/api/scraper/products/${cut.id}/publish`);
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.data).toMatchObject({ woocommerceProductId: half.parentId, woocommerceVariationId: half.variationId });
    expect(woo.state.variations.get(half.variationId)!.regular_price).toBe(String(finished.body.data.publishedPriceMnt));

    // Five publishes of one product and two bulk publishes of the whole game, all at once.
    const ids = all.map((product) => product.id);
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => call('POST', `/api/scraper/products/${all[1].id}/publish`)),
      call('POST', '/api/scraper/publish-selected', { productIds: ids }),
      call('POST', '/api/scraper/publish-selected', { productIds: [...ids].reverse() }),
    ]);
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(replies.at(-1)!.body.data).toEqual({ successful: ids.length, failed: 0, errors: [] });
    const games = gameProducts('Genshin Impact');
    expect(games).toHaveLength(1);
    const variations = woo.state.variationsOf(games[0].id);
    expect(variations).toHaveLength(ids.length);
    expect(new Set(variations.map((variation) => variation.sku)).size).toBe(ids.length);
    const recorded = await mappings();
    expect(recorded.map((mapping) => mapping.scrapedProductId).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(recorded.map((mapping) => mapping.woocommerceVariationId))).toEqual(new Set(variations.map((variation) => variation.id)));
  });

  it('bulk publish names what failed (the first reasons) and publishes the rest', { timeout: 30_000 }, async () => {
    const [one] = await products();
    const reply = await call('POST', '/api/scraper/publish-selected', { productIds: [one.id, 999_999, 999_998] });
    expect(reply.body.data).toEqual({ successful: 1, failed: 2, errors: ['Product 999999: Product not found', 'Product 999998: Product not found'] });
    expect((await call('POST', '/api/scraper/publish-selected', { productIds: [] })).status).toBe(400);
  });

  it('syncs prices when the settings change, skips what the shop already has, pushes changed marketplace prices, rescrapes one offer, and forgets what the shop deleted', { timeout: 120_000 }, async () => {
    // Every product is published (the test before); the settings change moves every MNT price.
    await setPricing(3600, 12);
    const synced = await call('POST', '/api/scraper/sync-prices');
    const count = (await mappings()).length;
    expect(synced.body.data).toEqual({ updated: count, skipped: 0, errors: 0, failures: [] });
    const byId = new Map((await products()).map((product) => [product.id, product]));
    for (const mapping of await mappings()) {
      const expected = priceInMnt(byId.get(mapping.scrapedProductId)!.priceUsd, 12, 3600);
      expect(mapping.publishedPriceMnt).toBe(expected);
      expect(woo.state.variations.get(mapping.woocommerceVariationId)!.regular_price).toBe(String(expected));
    }
    expect((await call('POST', '/api/scraper/sync-prices')).body.data).toEqual({ updated: 0, skipped: count, errors: 0, failures: [] });

    // The marketplace raises every second price by 20 %: a rescrape of one sees it.
    const raised = (await (await fetch(`${siteUrl}/__sim/prices/change`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ percent: 20, every: 2, gameSlug: 'genshin-impact' }) })).json()).changed as { id: string; priceUsd: number }[];
    expect(raised.length).toBeGreaterThan(1);
    const target = [...byId.values()].find((product) => product.sourceUrl === `${siteUrl}/offers/${raised[0].id}`)!;
    const rescraped = await call('POST', `/api/scraper/products/${target.id}/rescrape`);
    expect(rescraped.status, JSON.stringify(rescraped.body)).toBe(200);
    expect(rescraped.body.data).toEqual({ oldPrice: target.priceUsd, newPrice: raised[0].priceUsd, priceChanged: true });
    expect((await call('POST', `/api/scraper/products/${target.id}/rescrape`)).body.data).toEqual({ oldPrice: raised[0].priceUsd, newPrice: raised[0].priceUsd, priceChanged: false });

    // The rest of the changes come with a scrape; Sync Changed Prices pushes exactly those and clears their mark.
    await scrapeAll();
    const changed = (await products()).filter((product) => product.priceChanged);
    expect(changed.map((product) => product.sourceUrl).sort()).toEqual(raised.map((offer) => `${siteUrl}/offers/${offer.id}`).sort());
    const pushed = await call('POST', '/api/scraper/products/sync-changed-prices');
    expect(pushed.body.data).toEqual({ syncedCount: changed.length, failed: 0, failures: [] });
    expect((await products()).filter((product) => product.priceChanged)).toEqual([]);
    const after = new Map((await mappings()).map((mapping) => [mapping.scrapedProductId, mapping]));
    for (const product of changed) {
      const mapping = after.get(product.id)!;
      expect(woo.state.variations.get(mapping.woocommerceVariationId)!.regular_price).toBe(String(priceInMnt(product.priceUsd, 12, 3600)));
    }

    // Two variations deleted in the shop by hand: Sync Deletions forgets exactly those.
    const [gone1, gone2] = [...after.values()];
    for (const gone of [gone1, gone2]) woo.state.variations.delete(gone.woocommerceVariationId);
    const cleaned = await call('POST', '/api/scraper/sync-deletions');
    expect(cleaned.body.data).toEqual({ checked: after.size, deleted: 2 });
    expect((await mappings()).map((mapping) => mapping.scrapedProductId)).not.toContain(gone1.scrapedProductId);
    expect((await products()).find((product) => product.id === gone2.scrapedProductId)).toMatchObject({ woocommerceVariationId: null });
    expect((await call('POST', '/api/scraper/sync-deletions')).body.data).toEqual({ checked: after.size - 2, deleted: 0 });
  });

  it('takes a published variation out of the shop when it is deleted, and a whole game’s product with the game', { timeout: 60_000 }, async () => {
    const published = await mappings();
    const [first] = published;
    expect((await call('DELETE', `/api/scraper/products/${first.scrapedProductId}`)).status).toBe(200);
    expect(woo.state.variations.has(first.woocommerceVariationId)).toBe(false);
    expect((await call('DELETE', '/api/scraper/products/game/Genshin%20Impact')).status).toBe(200);
    expect(gameProducts('Genshin Impact')).toEqual([]);
    expect(await mappings()).toEqual([]);
    expect(await products()).toEqual([]);
  });
});
