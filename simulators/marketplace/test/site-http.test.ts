import { listen } from '@bo/sim-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildMarketplaceSimulator, generateOffers } from '../src/app';

const sim = buildMarketplaceSimulator({ seed: 7 });
let base: string;

beforeAll(async () => {
  base = await listen(sim.app);
});
afterAll(() => sim.app.close());
beforeEach(() => sim.app.inject({ method: 'POST', url: '/__sim/reset' }));

const control = (path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('marketplace site over plain HTTP', () => {
  it('lists the games on the index page with links to their categories', async () => {
    const html = await (await fetch(`${base}/`)).text();
    for (const slug of ['genshin-impact', 'mobile-legends', 'pubg-mobile', 'valorant', 'roblox']) expect(html).toContain(`href="/categories/${slug}"`);
  });

  it('serves offer cards without prices: the prices only appear once the page script runs', async () => {
    const response = await fetch(`${base}/categories/genshin-impact?page=1`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const cards = html.match(/<article class="offer-card"/g) ?? [];
    expect(cards).toHaveLength(8);
    const totalPages = Math.ceil(sim.state.offersOf('genshin-impact').length / 8);
    expect(totalPages).toBeGreaterThan(1);
    expect(html).toContain(`<nav class="pagination" data-total-pages="${totalPages}"`);
    expect(html).toContain('class="pagination-next" rel="next" href="/categories/genshin-impact?page=2"');
    // Every price element is empty and no formatted price is in the markup.
    expect([...html.matchAll(/<span class="offer-price-amount"[^>]*>([^<]*)<\/span>/g)].map((m) => m[1])).toEqual(Array(8).fill(''));
    const first = sim.state.offersOf('genshin-impact')[0];
    expect(html).not.toContain((first.priceCents / 100).toFixed(2));
    expect(html).toContain(`"${first.id}":${first.priceCents}`);
    expect(html).toContain(`<span class="seller-name">${first.sellerName}</span>`);
  });

  it('ends pagination on the last page and shows nothing beyond it', async () => {
    const totalPages = Math.ceil(sim.state.offersOf('genshin-impact').length / 8);
    const last = await (await fetch(`${base}/categories/genshin-impact?page=${totalPages}`)).text();
    expect(last).toContain('offer-card');
    expect(last).not.toContain('pagination-next');
    const beyond = await (await fetch(`${base}/categories/genshin-impact?page=9`)).text();
    expect(beyond).not.toContain('offer-card');
    expect((await fetch(`${base}/categories/no-such-game`)).status).toBe(404);
  });

  it('takes removed offers off the listings and their offer pages', async () => {
    const id = sim.state.offersOf('roblox')[0].id;
    expect((await fetch(`${base}/offers/${id}`)).status).toBe(200);
    const removed = (await (await control('/__sim/offers/remove', { ids: [id] })).json()) as { removed: { id: string }[] };
    expect(removed.removed.map((o) => o.id)).toEqual([id]);
    expect((await fetch(`${base}/offers/${id}`)).status).toBe(404);
    expect(await (await fetch(`${base}/categories/roblox`)).text()).not.toContain(`data-offer-id="${id}"`);
  });

  it('blocks with 429 and Retry-After for the given number of requests, then serves again', async () => {
    await control('/__sim/switches', { block: { status: 429, retryAfterSeconds: 12, times: 2 } });
    for (let i = 0; i < 2; i += 1) {
      const blocked = await fetch(`${base}/categories/valorant`);
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe('12');
    }
    expect((await fetch(`${base}/categories/valorant`)).status).toBe(200);
  });

  it('blocks with 403 until switched off, but never the /__sim/ control paths', async () => {
    await control('/__sim/switches', { block: { status: 403 } });
    expect((await fetch(`${base}/`)).status).toBe(403);
    expect((await fetch(`${base}/__sim/state`)).status).toBe(200);
    await control('/__sim/switches', { block: null });
    expect((await fetch(`${base}/`)).status).toBe(200);
  });

  it('renames the classes in the renamed layout', async () => {
    await control('/__sim/switches', { layout: 'renamed' });
    const html = await (await fetch(`${base}/categories/pubg-mobile`)).text();
    expect(html).toContain('<article class="sc-1x9f2a"');
    expect(html).not.toContain('offer-card');
  });

  it('rejects an invalid switch with the error shape', async () => {
    const response = await control('/__sim/switches', { block: { status: 500 } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid request');
  });

  it('generates the same catalogue from the same seed and another from another seed', () => {
    expect(generateOffers(7)).toEqual(generateOffers(7));
    expect(generateOffers(8).map((o) => o.priceCents)).not.toEqual(generateOffers(7).map((o) => o.priceCents));
    expect(sim.state.offers).toEqual(generateOffers(7));
  });

  it('shows the catalogue and the switch buttons on the control page', async () => {
    const html = await (await fetch(`${base}/__sim/`)).text();
    expect(html).toContain('Block with 429');
    expect(html).toContain(sim.state.offers[0].id);
  });
});
