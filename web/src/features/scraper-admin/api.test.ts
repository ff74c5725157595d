import {
  COMMISSION_RATE_MESSAGE,
  DEFAULT_EXCHANGE_RATE as PROTO_DEFAULT_EXCHANGE_RATE,
  MAX_PAGES_PER_JOB as PROTO_MAX_PAGES_PER_JOB,
  MAX_PUBLISH_SELECTED as PROTO_MAX_PUBLISH_SELECTED,
  MIN_PRICE_MESSAGE,
  PRODUCTS_PAGE_SIZE as PROTO_PRODUCTS_PAGE_SIZE,
  PUBLISHED_MESSAGE,
  scrapeJobStatuses,
  scrapeProgressEvents,
  UNPUBLISHED_MESSAGE,
  type ScrapedProduct,
} from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { pathOfKey } from '../../lib/api';
import {
  BULK_PUBLISH_ERROR_TOAST_MS,
  clock,
  commissionFor,
  DEFAULT_EXCHANGE_RATE,
  ELAPSED_TICK_MS,
  errorsSummary,
  groupByGame,
  groupCheckState,
  isPublished,
  jobCreatedAt,
  jobStatusList,
  MAX_PAGES_PER_JOB,
  MAX_PUBLISH_SELECTED,
  marketplaceBodyOf,
  pageNumberOf,
  pageRange,
  pagesToScrape,
  partialSuccessText,
  priceInMnt,
  PRODUCTS_PAGE_SIZE,
  progressEventList,
  progressPercent,
  remainingMs,
  scraperKeys,
  scraperPaths,
  sortTiers,
  tierBodyOf,
  toggleGroup,
  type MarketplaceForm,
} from './api';
import { en } from './texts.en';

describe("the scraper page's constants and texts agree with the route contracts and the spec", () => {
  it('mirrors proto: statuses, event names, page size, default rate, limits', () => {
    expect(jobStatusList).toEqual(scrapeJobStatuses);
    expect(progressEventList).toEqual(scrapeProgressEvents);
    expect(PRODUCTS_PAGE_SIZE).toBe(PROTO_PRODUCTS_PAGE_SIZE);
    expect(PRODUCTS_PAGE_SIZE).toBe(50);
    expect(DEFAULT_EXCHANGE_RATE).toBe(PROTO_DEFAULT_EXCHANGE_RATE);
    expect(DEFAULT_EXCHANGE_RATE).toBe(3400);
    expect(MAX_PAGES_PER_JOB).toBe(PROTO_MAX_PAGES_PER_JOB);
    expect(MAX_PUBLISH_SELECTED).toBe(PROTO_MAX_PUBLISH_SELECTED);
  });

  it('has document 2 §9’s timings: a 1 s elapsed tick, the bulk publish error toast for 10000 ms', () => {
    expect(ELAPSED_TICK_MS).toBe(1000);
    expect(BULK_PUBLISH_ERROR_TOAST_MS).toBe(10_000);
  });

  it('says the validation and outcome texts exactly as the server and the spec do', () => {
    expect(en['scraperAdmin.tiers.minPriceRequired']).toBe(MIN_PRICE_MESSAGE);
    expect(en['scraperAdmin.tiers.commissionRequired']).toBe(COMMISSION_RATE_MESSAGE);
    expect(en['scraperAdmin.products.publishedOne']).toBe(PUBLISHED_MESSAGE);
    expect(en['scraperAdmin.products.unpublishedOne']).toBe(UNPUBLISHED_MESSAGE);
    expect(en['scraperAdmin.progress.connectionLost']).toBe('Connection lost. Scraping may still be in progress...');
    expect(en['scraperAdmin.jobs.empty']).toBe('No scraping jobs found. Start a scrape from the marketplaces section below.');
    expect(en['scraperAdmin.tiers.empty']).toBe('No commission tiers found');
    expect(en['scraperAdmin.products.partialSuccess']).toBe('Partial Success');
    expect(en['scraperAdmin.products.fetchFailed']).toBe('Failed to fetch products');
  });
});

describe('the progress display (document 2 §4)', () => {
  it('shows the floor of current over total pages as a percent', () => {
    expect(progressPercent(0, 3)).toBe(0);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(66);
    expect(progressPercent(3, 3)).toBe(100);
    expect(progressPercent(199, 200)).toBe(99);
    expect(progressPercent(5, 0)).toBe(0);
    expect(progressPercent(7, 5)).toBe(100);
    expect(progressPercent(-1, 5)).toBe(0);
  });

  it('estimates the time left as elapsed / pages done × pages left, nothing before a page is done or once none are left', () => {
    expect(remainingMs(30_000, 1, 4)).toBe(90_000);
    expect(remainingMs(10_000, 3, 5)).toBe(6_667);
    expect(remainingMs(10_000, 0, 5)).toBeNull();
    expect(remainingMs(10_000, 5, 5)).toBeNull();
    expect(remainingMs(-5, 1, 5)).toBeNull();
  });

  it('writes a duration as a clock', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(7_999)).toBe('0:07');
    expect(clock(725_000)).toBe('12:05');
    expect(clock(3_729_000)).toBe('1:02:09');
    expect(clock(-100)).toBe('0:00');
  });
});

describe('the scrape dialog (document 2 §5)', () => {
  it('counts end − start + 1 pages, nothing for a range that is not one', () => {
    expect(pagesToScrape(1, 1)).toBe(1);
    expect(pagesToScrape(1, 2)).toBe(2);
    expect(pagesToScrape(3, 10)).toBe(8);
    expect(pagesToScrape(5, 4)).toBe(0);
    expect(pagesToScrape(0, 4)).toBe(0);
  });

  it('takes page numbers of at least 1 only', () => {
    expect(pageNumberOf('1')).toBe(1);
    expect(pageNumberOf(' 12 ')).toBe(12);
    for (const text of ['', '0', '-1', '1.5', 'x', '1e3']) expect(pageNumberOf(text)).toBeNull();
  });
});

describe('the bulk publish toast (document 2 §8)', () => {
  it('lists the first three errors, then says how many more', () => {
    expect(errorsSummary([])).toEqual({ listed: [], more: 0 });
    expect(errorsSummary(['a', 'b', 'c'])).toEqual({ listed: ['a', 'b', 'c'], more: 0 });
    expect(errorsSummary(['a', 'b', 'c', 'd', 'e'])).toEqual({ listed: ['a', 'b', 'c'], more: 2 });
    const more = (count: number) => en['scraperAdmin.andMore'].replace('{count}', String(count));
    expect(partialSuccessText(['P1: x', 'P2: y', 'P3: z', 'P4: w', 'P5: v'], 'Published: 1, Failed: 5', more)).toBe('Published: 1, Failed: 5\nP1: x\nP2: y\nP3: z\n...and 2 more');
    expect(partialSuccessText(['P1: x'], 'Published: 3, Failed: 1', more)).toBe('Published: 3, Failed: 1\nP1: x');
  });
});

const product = (id: number, gameName: string, woocommerceVariationId: number | null = null): ScrapedProduct => ({
  id, marketplaceId: 1, gameName, productName: 'Diamonds', variationValue: `${id} Diamonds`, attributeName: 'Amount', priceUsd: 1.55, previousPriceUsd: null, priceChanged: false,
  sourceUrl: null, sellerName: null, sellerLevel: null, sellerLocation: null, orderSuccessRate: null, totalSales: null, ratingDescription: null, ratingService: null, ratingSpeed: null,
  rawText: '', scrapedAt: '2026-11-26T08:00:00.000Z', woocommerceVariationId, woocommerceParentId: woocommerceVariationId ? 1 : null,
});

describe('products grouped by game, and what can be selected', () => {
  it('groups a page by game in the order given', () => {
    const groups = groupByGame([product(1, 'Genshin Impact'), product(2, 'Genshin Impact'), product(3, 'Mobile Legends')]);
    expect(groups.map((group) => [group.gameName, group.products.map((one) => one.id)])).toEqual([['Genshin Impact', [1, 2]], ['Mobile Legends', [3]]]);
  });

  it('counts a product published when a mapping names it or it carries its shop variation', () => {
    expect(isPublished(product(1, 'G'), new Set())).toBe(false);
    expect(isPublished(product(1, 'G'), new Set([1]))).toBe(true);
    expect(isPublished(product(2, 'G', 302), new Set())).toBe(true);
  });

  it("checks a game's box when all its selectable variations are, indeterminate for some, and never selects a published one", () => {
    const rows = [product(1, 'G'), product(2, 'G'), product(3, 'G', 302), product(4, 'G')];
    const published = new Set([4]);
    expect(groupCheckState(rows, new Set(), published)).toEqual({ checked: false, selectable: [1, 2] });
    expect(groupCheckState(rows, new Set([1]), published).checked).toBe('indeterminate');
    expect(groupCheckState(rows, new Set([1, 2]), published).checked).toBe(true);
    expect(groupCheckState([product(3, 'G', 302)], new Set(), published)).toEqual({ checked: false, selectable: [] });
    // Clicking selects every selectable one, and again (all selected) none; other games' choices stay.
    const all = toggleGroup(new Set([9]), [1, 2]);
    expect([...all].sort()).toEqual([1, 2, 9]);
    expect([...toggleGroup(all, [1, 2])]).toEqual([9]);
    expect([...toggleGroup(new Set([1]), [1, 2])].sort()).toEqual([1, 2]);
  });

  it("says 'Showing a-b of total' for a page", () => {
    expect(pageRange(1, 0)).toEqual({ from: 0, to: 0 });
    expect(pageRange(1, 20)).toEqual({ from: 1, to: 20 });
    expect(pageRange(2, 120)).toEqual({ from: 51, to: 100 });
    expect(pageRange(3, 120)).toEqual({ from: 101, to: 120 });
  });
});

describe('pricing (document 2 §5, §9)', () => {
  it('validates a tier: min and rate required and >= 0, an empty max meaning no upper limit', () => {
    expect(tierBodyOf({ minPrice: '', maxPrice: '', commissionRate: '10' })).toEqual({ problem: 'minPrice' });
    expect(tierBodyOf({ minPrice: '-1', maxPrice: '', commissionRate: '10' })).toEqual({ problem: 'minPrice' });
    expect(tierBodyOf({ minPrice: '0', maxPrice: '', commissionRate: '' })).toEqual({ problem: 'commissionRate' });
    expect(tierBodyOf({ minPrice: '0', maxPrice: '', commissionRate: '-0.1' })).toEqual({ problem: 'commissionRate' });
    expect(tierBodyOf({ minPrice: '0', maxPrice: '-5', commissionRate: '1' })).toEqual({ problem: 'maxPrice' });
    expect(tierBodyOf({ minPrice: '0', maxPrice: '', commissionRate: '0' })).toEqual({ body: { minPrice: 0, maxPrice: null, commissionRate: 0 } });
    expect(tierBodyOf({ minPrice: ' 10.5 ', maxPrice: '20.25', commissionRate: '12.5' })).toEqual({ body: { minPrice: 10.5, maxPrice: 20.25, commissionRate: 12.5 } });
  });

  it('sorts tiers by min price and finds a price’s tier by min <= price < max, else the global rate', () => {
    const tiers = sortTiers([
      { id: 2, minPrice: 10, maxPrice: null, commissionRate: 5 },
      { id: 1, minPrice: 0, maxPrice: 10, commissionRate: 15 },
    ]);
    expect(tiers.map((tier) => tier.id)).toEqual([1, 2]);
    expect(commissionFor(9.99, tiers, 3)).toBe(15);
    expect(commissionFor(10, tiers, 3)).toBe(5);
    expect(commissionFor(1000, tiers, 3)).toBe(5);
    expect(commissionFor(5, [{ minPrice: 6, maxPrice: 8, commissionRate: 1 }], 3)).toBe(3);
  });

  it('makes MNT as the server does: round(USD × (1 + commission/100) × rate), exact on a half', () => {
    expect(priceInMnt(1.15, 10, 3400)).toBe(4301);
    expect(priceInMnt(1.55, 0, 3400)).toBe(5270);
    expect(priceInMnt(4.99, 15.5, 3450.5)).toBe(19887);
    expect(priceInMnt(0, 10, 3400)).toBe(0);
  });
});

describe('the marketplace form (document 2 §5)', () => {
  const form: MarketplaceForm = { name: ' GameMarket ', url: 'http://127.0.0.1:4107/categories/genshin-impact', countryCode: '', scrapeConfig: '', paginationEnabled: false, paginationParam: 'page', enabled: true };

  it('needs a name and an http(s) URL', () => {
    expect(marketplaceBodyOf({ ...form, name: ' ' })).toEqual({ problems: { name: 'nameRequired' } });
    expect(marketplaceBodyOf({ ...form, url: '' })).toEqual({ problems: { url: 'urlRequired' } });
    expect(marketplaceBodyOf({ ...form, url: 'www.g2g.com' })).toEqual({ problems: { url: 'urlInvalid' } });
    expect(marketplaceBodyOf({ ...form, url: 'ftp://g2g.com/x' })).toEqual({ problems: { url: 'urlInvalid' } });
  });

  it('sends us for a blank country, the config as typed, and the pagination parameter only while pagination is on', () => {
    expect(marketplaceBodyOf(form)).toEqual({
      body: { name: 'GameMarket', url: form.url, countryCode: 'us', scrapeConfig: null, paginationEnabled: false, paginationParam: null, enabled: true },
    });
    const on = marketplaceBodyOf({ ...form, countryCode: 'MN', scrapeConfig: '{"cardSelector": ".x"}', paginationEnabled: true, paginationParam: ' p ' });
    expect(on).toMatchObject({ body: { countryCode: 'mn', scrapeConfig: '{"cardSelector": ".x"}', paginationEnabled: true, paginationParam: 'p' } });
  });
});

describe('dates and paths', () => {
  it("writes a job's Created as 'MMM d, yyyy HH:mm' in local time", () => {
    expect(jobCreatedAt(new Date(2026, 10, 26, 8, 5))).toBe('Nov 26, 2026 08:05');
    expect(jobCreatedAt(new Date(2027, 0, 3, 23, 59))).toBe('Jan 3, 2027 23:59');
    expect(jobCreatedAt('not a date')).toBe('');
  });

  it('builds the GET paths and encodes a game name', () => {
    expect(pathOfKey(scraperKeys.products(2))).toBe('/api/scraper/products?page=2&limit=50');
    expect(scraperPaths.game('Valorant / EU')).toBe('/api/scraper/products/game/Valorant%20%2F%20EU');
    expect(scraperPaths.progress(7)).toBe('/api/scraper/jobs/7/progress');
  });
});
