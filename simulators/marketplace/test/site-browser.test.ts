import { listen } from '@bo/sim-kit';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildMarketplaceSimulator, DEFAULT_SCRAPE_CONFIG } from '../src/app';

type Scraped = Record<keyof typeof DEFAULT_SCRAPE_CONFIG.fields | 'sourceUrl', string>;

const DEFAULT_PAGE_SIZE = 8;
const sim = buildMarketplaceSimulator({ seed: 11 });
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  base = await listen(sim.app);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await sim.app.close();
});
beforeEach(() => sim.state.reset());

/** What a scraper does with the documented scrapeConfig: wait for the script, read each card's fields. */
async function readCards(url: string, waitMs = 2_000, config = DEFAULT_SCRAPE_CONFIG): Promise<{ offers: Scraped[]; next: string | null }> {
  await page.goto(url, { timeout: 10_000 });
  await page.waitForSelector(config.waitForSelector, { timeout: waitMs });
  const offers = await page.$$eval(
    config.cardSelector,
    (cards, cfg) =>
      cards.map((card) => {
        const text = (selector: string) => card.querySelector(selector)?.textContent?.trim() ?? '';
        const fields = Object.fromEntries(Object.entries(cfg.fields).map(([name, selector]) => [name, text(selector)]));
        const href = card.querySelector(cfg.link.selector)?.getAttribute(cfg.link.attribute) ?? '';
        return { ...fields, sourceUrl: href };
      }),
    config,
  );
  const next = await page.$eval(config.pagination.nextSelector, (a) => a.getAttribute('href')).catch(() => null);
  const absolute = (href: string) => new URL(href, page.url()).href;
  return { offers: (offers as Scraped[]).map((offer) => ({ ...offer, sourceUrl: absolute(offer.sourceUrl) })), next: next && absolute(next) };
}

async function readGame(slug: string): Promise<Scraped[]> {
  const all: Scraped[] = [];
  let url: string | null = `${base}/categories/${slug}?${DEFAULT_SCRAPE_CONFIG.pagination.param}=1`;
  while (url) {
    const { offers, next } = await readCards(url);
    all.push(...offers);
    url = next;
  }
  return all;
}

const idOf = (offer: Scraped) => offer.sourceUrl.split('/').pop();

describe('marketplace site in Chromium with the default scrapeConfig', () => {
  it('reads every offer of a game page by page, prices included', async () => {
    const scraped = await readGame('mobile-legends');
    const truth = sim.state.offersOf('mobile-legends');
    expect(scraped.length).toBeGreaterThan(DEFAULT_PAGE_SIZE);
    expect(scraped.map(idOf)).toEqual(truth.map((o) => o.id));
    expect(scraped[0]).toEqual({
      gameName: 'Mobile Legends',
      productName: truth[0].productName,
      attributeName: truth[0].attributeName,
      variationValue: truth[0].variationValue,
      priceUsd: (truth[0].priceCents / 100).toFixed(2),
      sellerName: truth[0].sellerName,
      sellerLevel: String(truth[0].sellerLevel),
      sellerLocation: truth[0].sellerLocation,
      orderSuccessRate: `${truth[0].orderSuccessRate.toFixed(1)}%`,
      totalSales: truth[0].totalSales.toLocaleString('en-US'),
      ratingDescription: truth[0].ratingDescription.toFixed(1),
      ratingService: truth[0].ratingService.toFixed(1),
      ratingSpeed: truth[0].ratingSpeed.toFixed(1),
      sourceUrl: `${base}/offers/${truth[0].id}`,
    });
    expect(scraped.every((offer) => /^\d+\.\d{2}$/.test(offer.priceUsd))).toBe(true);
  });

  it('sees prices changed by the switch on the next scrape', async () => {
    const before = (await readCards(`${base}/categories/roblox?page=1`)).offers;
    await sim.app.inject({ method: 'POST', url: '/__sim/prices/change', payload: { percent: 10, gameSlug: 'roblox' } });
    const after = (await readCards(`${base}/categories/roblox?page=1`)).offers;
    expect(after.map(idOf)).toEqual(before.map(idOf));
    after.forEach((offer, i) => expect(offer.priceUsd).toBe((Math.round(Number(before[i].priceUsd) * 100 * 1.1) / 100).toFixed(2)));
  });

  it('misses the offers that disappeared', async () => {
    const removed = sim.state.removeOffers({ every: 3, gameSlug: 'valorant' }).map((o) => o.id);
    const scraped = (await readGame('valorant')).map(idOf);
    expect(removed.length).toBeGreaterThan(1);
    expect(scraped.filter((id) => removed.includes(id!))).toEqual([]);
    expect(scraped).toEqual(sim.state.offersOf('valorant').map((o) => o.id));
  });

  it('breaks the default selectors after the layout change', async () => {
    sim.state.setSwitches({ layout: 'renamed' });
    await expect(readCards(`${base}/categories/pubg-mobile`, 500)).rejects.toThrow(/Timeout/);
    expect(await page.$$(DEFAULT_SCRAPE_CONFIG.cardSelector)).toHaveLength(0);
    expect((await page.$$('article')).length).toBe(DEFAULT_PAGE_SIZE);
  });

  it('gets 403 and 429 (with Retry-After) when blocked', async () => {
    sim.state.setSwitches({ block: { status: 403, retryAfterSeconds: 0 } });
    expect((await page.goto(`${base}/categories/roblox`))!.status()).toBe(403);
    sim.state.setSwitches({ block: { status: 429, retryAfterSeconds: 45, times: 1 } });
    const limited = (await page.goto(`${base}/categories/roblox`))!;
    expect(limited.status()).toBe(429);
    expect(limited.headers()['retry-after']).toBe('45');
    expect(await page.$$(DEFAULT_SCRAPE_CONFIG.cardSelector)).toHaveLength(0);
    expect((await page.goto(`${base}/categories/roblox`))!.status()).toBe(200);
  });

  it('times out on a slow page with a short navigation timeout, loads it with a longer one', async () => {
    sim.state.setSwitches({ delayMs: 1_500 });
    await expect(page.goto(`${base}/categories/genshin-impact`, { timeout: 300 })).rejects.toThrow(/Timeout 300ms exceeded/);
    // A fresh tab, as a scraper would open after giving up on one: the old navigation is still pending.
    const patient = await browser.newPage();
    const started = Date.now();
    expect((await patient.goto(`${base}/categories/genshin-impact`, { timeout: 5_000 }))!.status()).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    await patient.close();
  });
});
