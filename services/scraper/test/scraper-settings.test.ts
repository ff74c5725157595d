import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import { COMMISSION_RATE_MESSAGE, DEFAULT_EXCHANGE_RATE, MIN_PRICE_MESSAGE, type CommissionTier, type Marketplace } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildMarketplaceSimulator, DEFAULT_SCRAPE_CONFIG } from '@bo/sim-marketplace';
import scraper from '../src/service';

/** The scraper's settings (issue 22, first part) on its real schema: the Pricing tab and the marketplaces. */
describe('the scraper: exchange rate, commission tiers and marketplaces', () => {
  let system: TestSystem;
  let marketplaceUrl: string;
  const marketplace = buildMarketplaceSimulator();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => system.call('scraper', method, path, body);

  beforeAll(async () => {
    marketplaceUrl = await listen(marketplace.app);
    system = await startTestSystem('scraper_settings', { services: ['scraper'] });
    await system.start(scraper as never, { SCRAPER_ALLOWED_HOSTS: new URL(marketplaceUrl).host });
  });
  afterAll(async () => {
    await system?.stop();
    await marketplace.app.close();
  });

  it('shows 3400 MNT per USD and no commission until saved, then who saved each and when; saves at once keep both values', async () => {
    expect((await call('GET', '/api/scraper/exchange-rate')).body.data).toEqual({ fromCurrency: 'USD', toCurrency: 'MNT', rate: DEFAULT_EXCHANGE_RATE, commissionRate: 0, isActive: true, updatedBy: null, createdAt: null });
    const saved = await call('PUT', '/api/scraper/exchange-rate', { rate: 3450.5 });
    expect(saved.body).toMatchObject({ success: true, data: { rate: 3450.5, commissionRate: 0, isActive: true, updatedBy: 'admin@example.com', createdAt: expect.any(String) } });
    // The rate and the commission saved at once, ten times each: the last of each stands, none is lost to the other.
    await Promise.all(Array.from({ length: 20 }, (_, n) => (n % 2 === 0 ? call('PUT', '/api/scraper/exchange-rate', { rate: 3460 }) : call('PUT', '/api/scraper/commission-rate', { commissionRate: 7.5 }))));
    expect((await call('GET', '/api/scraper/exchange-rate')).body.data).toMatchObject({ rate: 3460, commissionRate: 7.5 });
    const running = system.running('scraper')!;
    const rows = await (running.prisma as { exchangeRate: { findMany(args: object): Promise<{ isActive: boolean }[]> } }).exchangeRate.findMany({ orderBy: { id: 'asc' } });
    expect(rows).toHaveLength(21);
    expect(rows.filter((row) => row.isActive)).toHaveLength(1);

    expect((await call('PUT', '/api/scraper/exchange-rate', { rate: 0 })).body.error).toBe('Invalid body: rate: Rate must be more than 0');
    expect((await call('PUT', '/api/scraper/exchange-rate', { rate: '3400' })).status).toBe(400);
    expect((await call('PUT', '/api/scraper/commission-rate', { commissionRate: -1 })).body.error).toBe('Invalid body: commissionRate: Commission rate must be a number >= 0');
  });

  it('keeps commission tiers sorted by min price, refuses bad values with the form’s words, and never lets two overlap', async () => {
    const made = await call('POST', '/api/scraper/commission-tiers', { minPrice: 10, maxPrice: 50, commissionRate: 12.5 });
    expect(made.body).toMatchObject({ success: true, data: { minPrice: 10, maxPrice: 50, commissionRate: 12.5 } });
    await call('POST', '/api/scraper/commission-tiers', { minPrice: 100, maxPrice: null, commissionRate: 5 });
    await call('POST', '/api/scraper/commission-tiers', { minPrice: 0, maxPrice: 10, commissionRate: 20 });
    const tiers: CommissionTier[] = (await call('GET', '/api/scraper/commission-tiers')).body.data;
    expect(tiers.map((tier) => [tier.minPrice, tier.maxPrice, tier.commissionRate])).toEqual([[0, 10, 20], [10, 50, 12.5], [100, null, 5]]);

    expect((await call('POST', '/api/scraper/commission-tiers', { maxPrice: 5, commissionRate: 1 })).body.error).toBe(`Invalid body: minPrice: ${MIN_PRICE_MESSAGE}`);
    expect((await call('POST', '/api/scraper/commission-tiers', { minPrice: -1, commissionRate: 1 })).body.error).toBe(`Invalid body: minPrice: ${MIN_PRICE_MESSAGE}`);
    expect((await call('POST', '/api/scraper/commission-tiers', { minPrice: 60, commissionRate: -0.5 })).body.error).toBe(`Invalid body: commissionRate: ${COMMISSION_RATE_MESSAGE}`);
    expect((await call('POST', '/api/scraper/commission-tiers', { minPrice: 60, maxPrice: 60, commissionRate: 1 })).body.error).toBe('Invalid body: maxPrice: Max Price must be greater than Min Price');
    // An open band over a bounded one, and a band inside another: refused.
    const overlap = await call('POST', '/api/scraper/commission-tiers', { minPrice: 40, maxPrice: 60, commissionRate: 9 });
    expect(overlap.status).toBe(409);
    expect(overlap.body.error).toBe('Commission tiers must not overlap: another tier covers part of this price range');
    expect((await call('POST', '/api/scraper/commission-tiers', { minPrice: 150, maxPrice: null, commissionRate: 9 })).status).toBe(409);
    // Ten operators adding the same free band at once: one tier.
    const same = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/scraper/commission-tiers', { minPrice: 50, maxPrice: 100, commissionRate: 10 })));
    expect(same.map((reply) => reply.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    // Each refusal names the overlap, not a generic clash of writes.
    expect(new Set(same.filter((reply) => reply.status === 409).map((reply) => reply.body.error))).toEqual(new Set([overlap.body.error]));

    const [first] = tiers;
    expect((await call('PUT', `/api/scraper/commission-tiers/${first.id}`, { minPrice: 0, maxPrice: 10, commissionRate: 18 })).body.data).toMatchObject({ commissionRate: 18 });
    expect((await call('PUT', `/api/scraper/commission-tiers/${first.id}`, { minPrice: 0, maxPrice: 20, commissionRate: 18 })).status).toBe(409);
    expect((await call('DELETE', `/api/scraper/commission-tiers/${first.id}`)).body).toEqual({ success: true });
    expect((await call('DELETE', `/api/scraper/commission-tiers/${first.id}`)).status).toBe(404);
    expect((await call('PUT', '/api/scraper/commission-tiers/999999', { minPrice: 0, commissionRate: 1 })).status).toBe(404);
  });

  it('adds, edits, switches and deletes marketplaces; a scrape config is checked field by field', async () => {
    const listing = `${marketplaceUrl}/games/mobile-legends`;
    const added = await call('POST', '/api/scraper/marketplaces', { name: 'G2G', url: listing, countryCode: '', scrapeConfig: JSON.stringify(DEFAULT_SCRAPE_CONFIG), paginationEnabled: true, paginationParam: '' });
    expect(added.status).toBe(200);
    const g2g: Marketplace = added.body.data;
    expect(g2g).toMatchObject({ name: 'G2G', url: listing, countryCode: 'us', paginationEnabled: true, paginationParam: 'page', enabled: true });
    expect(g2g.scrapeConfig).toMatchObject({ cardSelector: '.offer-card', renderJavaScript: true, fields: { priceUsd: '.offer-price-amount' } });

    // The pagination parameter is kept only while pagination is on, whichever fields an edit sends.
    const edit = async (change: object) => (await call('PUT', `/api/scraper/marketplaces/${g2g.id}`, change)).body.data as Marketplace;
    expect(await edit({ paginationParam: 'p' })).toMatchObject({ paginationEnabled: true, paginationParam: 'p' });
    expect(await edit({ name: 'G2G' })).toMatchObject({ paginationEnabled: true, paginationParam: 'p' });
    expect(await edit({ paginationParam: '' })).toMatchObject({ paginationParam: 'page' });
    expect(await edit({ paginationEnabled: false, paginationParam: 'p' })).toMatchObject({ paginationEnabled: false, paginationParam: null });
    expect(await edit({ paginationParam: 'p' })).toMatchObject({ paginationEnabled: false, paginationParam: null });
    expect(await edit({})).toMatchObject({ name: 'G2G', paginationEnabled: false, paginationParam: null });
    // The list's switch sends only enabled.
    expect((await call('PUT', `/api/scraper/marketplaces/${g2g.id}`, { enabled: false })).body.data).toMatchObject({ enabled: false, name: 'G2G', countryCode: 'us' });
    expect((await call('PUT', `/api/scraper/marketplaces/${g2g.id}`, { scrapeConfig: '' })).body.data.scrapeConfig).toBeNull();

    const refusal = async (change: object) => {
      const reply = await call('POST', '/api/scraper/marketplaces', { name: 'Other', url: listing, ...change });
      expect(reply.status).toBe(400);
      return reply.body.error as string;
    };
    expect(await refusal({ scrapeConfig: '{"cardSelector": ".card",' })).toMatch(/^Invalid body: scrapeConfig: Scrape config is not valid JSON: /);
    const { cardSelector, fields } = DEFAULT_SCRAPE_CONFIG;
    expect(await refusal({ scrapeConfig: { cardSelector, fields: { ...fields, price: '.price' } } })).toBe('Invalid body: scrapeConfig: Scrape config is not valid: unknown field "fields.price"');
    expect(await refusal({ scrapeConfig: { cardSelector, fields, waitFor: '.x' } })).toBe('Invalid body: scrapeConfig: Scrape config is not valid: unknown field "waitFor"');
    expect(await refusal({ scrapeConfig: { fields } })).toMatch(/^Invalid body: scrapeConfig: Scrape config is not valid: cardSelector: /);
    expect(await refusal({ scrapeConfig: '[1, 2]' })).toMatch(/^Invalid body: scrapeConfig: Scrape config is not valid: /);
    expect(await refusal({ name: ' ' })).toBe('Invalid body: name: Name is required');
    expect(await refusal({ url: '' })).toBe('Invalid body: url: URL is required');
    expect(await refusal({ url: 'not a url' })).toBe('Invalid body: url: URL must be an http(s) URL');
    expect(await refusal({ countryCode: 'usa' })).toBe('Invalid body: countryCode: Country code must be two letters');

    // Names are unique, also when ten are added at once.
    const twins = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/scraper/marketplaces', { name: 'Eneba', url: listing })));
    expect(twins.map((reply) => reply.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(twins.find((reply) => reply.status === 409)!.body.error).toBe('A marketplace named "Eneba" already exists');

    const names = ((await call('GET', '/api/scraper/marketplaces')).body.data as Marketplace[]).map((one) => one.name);
    expect(names).toEqual(['Eneba', 'G2G']);
    expect((await call('DELETE', `/api/scraper/marketplaces/${g2g.id}`)).body).toEqual({ success: true });
    expect((await call('PUT', `/api/scraper/marketplaces/${g2g.id}`, { enabled: true })).status).toBe(404);
  });

  it('refuses a marketplace URL that would make the scraper fetch from inside our network, saying why', async () => {
    const targets = [
      'http://127.0.0.1/', 'http://localhost/', 'http://api.localhost/', 'http://[::1]/', 'http://0.0.0.0/', 'http://10.0.0.8/', 'http://172.16.3.4/', 'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/', 'http://[fd00::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://0x7f000001/', 'http://100.64.0.1/',
      'http://user:secret@example.com/', 'ftp://example.com/', 'file:///etc/passwd', 'http://example.com:8080/', 'javascript:alert(1)', 'gopher://127.0.0.1:70/',
    ];
    const replies = await Promise.all(targets.map((url) => call('POST', '/api/scraper/marketplaces', { name: `Hostile ${url}`, url })));
    for (const [n, reply] of replies.entries()) {
      expect(reply.status, targets[n]).toBe(400);
      expect(reply.body.error, targets[n]).toMatch(/cannot be fetched: |^Invalid body: url: URL must be an http\(s\) URL$/);
    }
    // And on an edit.
    const { body } = await call('POST', '/api/scraper/marketplaces', { name: 'Simulator', url: `${marketplaceUrl}/games/pubg` });
    expect((await call('PUT', `/api/scraper/marketplaces/${body.data.id}`, { url: 'http://127.0.0.1:5432/' })).status).toBe(400);
    const names = ((await call('GET', '/api/scraper/marketplaces')).body.data as Marketplace[]).map((one) => one.name);
    expect(names.some((name) => name.startsWith('Hostile'))).toBe(false);
  });
});
