import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { asService } from '@bo/platform/testing/identity';
import { asAdmin, startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import { LAYOUT_CHANGED_ERROR, type ComparisonRow, type ProductGame, type ScrapedProduct, type ScrapeJob } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildMarketplaceSimulator, DEFAULT_SCRAPE_CONFIG } from '@bo/sim-marketplace';
import { priceInMnt } from '@bo/proto/scraper-prices';
import type { BrowserHolder } from '../src/scraping/browser';
import type { ListingReader, ListingSource } from '../src/scraping/listing-reader';
import scraper from '../src/service';

interface StreamEvent {
  id: string | null;
  event: string;
  data: any;
}

/** Reads a progress stream to its end (or `until` events), as the browser's EventSource would. */
async function readStream(url: string, headers: Record<string, string> = {}, until = Infinity): Promise<StreamEvent[]> {
  const response = await fetch(url, { headers: { ...asAdmin, ...headers } });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: StreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(':')) continue;
      const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
      events.push({ id: field('id'), event: field('event')!, data: JSON.parse(field('data')!) });
      if (events.length >= until) {
        await response.body?.cancel();
        return events;
      }
    }
  }
  return events;
}

/**
 * Issue 22's scraping against the marketplace simulator's real pages in Debian's Chromium: a job's
 * pages as runs, its progress stream, the products with their prices, a rescrape's changes, a
 * layout change, a bot wall, cancel and resume, a second replica, and a page that aims inside.
 */
describe('the scraper: jobs read in Chromium', () => {
  let system: TestSystem;
  let siteUrl: string;
  let marketplaceId: number;
  const site = buildMarketplaceSimulator();
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => system.call('scraper', method, path, body);
  const switches = (change: object) => fetch(`${siteUrl}/__sim/switches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(change) });
  const scrape = async (id: number, startPage: number, endPage: number): Promise<ScrapeJob> => {
    const started = await call('POST', `/api/scraper/scrape/${id}`, { startPage, endPage });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    return started.body.data;
  };
  const job = async (id: number): Promise<ScrapeJob> => (await call('GET', '/api/scraper/jobs?limit=200')).body.data.find((one: ScrapeJob) => one.id === id);
  const ended = (id: number, timeoutMs = 60_000) =>
    eventually(async () => {
      const found = await job(id);
      return found && ['completed', 'failed', 'cancelled'].includes(found.status) ? found : null;
    }, timeoutMs, `job ${id} to end`);
  const products = async (): Promise<ScrapedProduct[]> => (await call('GET', '/api/scraper/products?page=1&limit=200')).body.data;
  const catalogue = async (game: string): Promise<{ id: string; priceUsd: number }[]> => (await (await fetch(`${siteUrl}/__sim/catalogue?game=${game}`)).json()).offers;

  beforeAll(async () => {
    siteUrl = await listen(site.app);
    system = await startTestSystem('scraper_jobs', { services: ['scraper'] });
    await system.start(scraper as never, { SCRAPER_ALLOWED_HOSTS: new URL(siteUrl).host, SCRAPER_PAGE_TIMEOUT_MS: '8000' });
    const created = await call('POST', '/api/scraper/marketplaces', {
      name: 'GameMarket', url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: JSON.stringify(DEFAULT_SCRAPE_CONFIG), paginationEnabled: true, paginationParam: 'page',
    });
    marketplaceId = created.body.data.id;
  }, 60_000);
  afterAll(async () => {
    await system?.stop();
    await site.app.close();
  });

  it('reads every offer of pages 1..4 with its exact price and link; the stream sends the spec’s events in order and ends; page 4 is past the end, not a failure', { timeout: 90_000 }, async () => {
    const started = await scrape(marketplaceId, 1, 4);
    expect(started).toMatchObject({ status: 'pending', startPage: 1, endPage: 4, totalPages: 4, currentPage: 0, marketplaceName: 'GameMarket' });
    const events = await readStream(`${system.url('scraper')}/api/scraper/jobs/${started.id}/progress`);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('init');
    expect(names.at(-1)).toBe('job_complete');
    expect(names.filter((name) => name === 'job_start')).toHaveLength(1);
    expect(names.filter((name) => name === 'page_start')).toHaveLength(4);
    expect(names.filter((name) => name === 'page_complete')).toHaveLength(4);
    expect(names.indexOf('job_start')).toBeLessThan(names.indexOf('page_start'));
    // Each page starts before it completes; the ids only grow.
    for (const page of [1, 2, 3, 4]) {
      const startAt = events.findIndex((event) => event.event === 'page_start' && event.data.pageNumber === page);
      const doneAt = events.findIndex((event) => event.event === 'page_complete' && event.data.pageNumber === page);
      expect(startAt).toBeGreaterThan(0);
      expect(doneAt).toBeGreaterThan(startAt);
    }
    const ids = events.filter((event) => event.id !== null).map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.at(-1)!.data).toMatchObject({ status: 'completed', currentPage: 4, totalProducts: 20, error: null, completedAt: expect.any(String) });
    expect(events.find((event) => event.event === 'page_complete' && event.data.pageNumber === 4)!.data).toMatchObject({ productsFound: 0, productsInserted: 0 });

    const offers = await catalogue('genshin-impact');
    const stored = await products();
    expect(stored).toHaveLength(20);
    const byLink = new Map(stored.map((product) => [product.sourceUrl, product]));
    for (const offer of offers) expect(byLink.get(`${siteUrl}/offers/${offer.id}`)?.priceUsd, offer.id).toBe(offer.priceUsd);
    expect(stored[0]).toMatchObject({ gameName: 'Genshin Impact', priceChanged: false, previousPriceUsd: null, sellerName: expect.any(String), totalSales: expect.any(Number), orderSuccessRate: expect.any(Number) });

    // Resumed from its last event id, a stream sends only what came after, to the end.
    const fromMiddle = events[4].id!;
    const rest = await readStream(`${system.url('scraper')}/api/scraper/jobs/${started.id}/progress`, { 'last-event-id': fromMiddle });
    expect(rest.map((event) => event.id)).toEqual(events.slice(5).map((event) => event.id));
    // An ended job's stream: init and its end.
    expect((await readStream(`${system.url('scraper')}/api/scraper/jobs/${started.id}/progress`)).map((event) => event.event)).toEqual(['init', 'job_complete']);
  });

  it('flags only the offers whose price changed on the rescrape, keeping the price before; nothing is added twice', { timeout: 90_000 }, async () => {
    const before = new Map((await products()).map((product) => [product.sourceUrl, product.priceUsd]));
    const changed: { id: string; priceUsd: number }[] = (await (await fetch(`${siteUrl}/__sim/prices/change`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ percent: 10, every: 4, gameSlug: 'genshin-impact' }) })).json()).changed;
    const done = await ended((await scrape(marketplaceId, 1, 3)).id);
    expect(done).toMatchObject({ status: 'completed', totalProducts: 20 });
    const after = await products();
    expect(after).toHaveLength(20);
    const flagged = after.filter((product) => product.priceChanged);
    expect(flagged.map((product) => product.sourceUrl).sort()).toEqual(changed.map((offer) => `${siteUrl}/offers/${offer.id}`).sort());
    for (const product of flagged) {
      expect(product.previousPriceUsd).toBe(before.get(product.sourceUrl));
      expect(product.priceUsd).toBe(changed.find((offer) => `${siteUrl}/offers/${offer.id}` === product.sourceUrl)!.priceUsd);
    }
  });

  it(`fails with "${LAYOUT_CHANGED_ERROR}" when three pages in a row match nothing, instead of completing with 0 products`, { timeout: 90_000 }, async () => {
    const before = (await products()).length;
    await switches({ layout: 'renamed' });
    try {
      const done = await ended((await scrape(marketplaceId, 1, 5)).id);
      expect(done).toMatchObject({ status: 'failed', error: LAYOUT_CHANGED_ERROR, totalProducts: 0 });
      expect(await products()).toHaveLength(before);
      // And an alert, fired once however often the rules are evaluated.
      const alerts = system.running('scraper')!.alerts!;
      const layoutAlerts = async () => (await alerts.list({ status: 'active', limit: 50 })).filter((alert) => alert.rule === 'scrape-layout-changed');
      expect((await alerts.evaluate()).fired).toBe(1);
      expect((await alerts.evaluate()).fired).toBe(0);
      expect(await layoutAlerts()).toMatchObject([{ key: String(marketplaceId), status: 'firing', title: 'Marketplace layout changed', message: `GameMarket: ${LAYOUT_CHANGED_ERROR} (job ${done.id} failed ${done.completedAt})` }]);
      // The site back as it was (or the config mended): a resume reads the pages that matched nothing again.
      await switches({ layout: 'default' });
      expect((await call('POST', `/api/scraper/jobs/${done.id}/resume`)).status).toBe(200);
      expect(await ended(done.id)).toMatchObject({ status: 'completed', totalProducts: 20, error: null });
      expect((await alerts.evaluate()).resolved).toBe(1);
      expect(await layoutAlerts()).toEqual([]);
    } finally {
      await switches({ layout: 'default' });
    }
  });

  it('waits out a 429 for its Retry-After and passes a 403 bot wall with a fresh try, then reads the page', { timeout: 90_000 }, async () => {
    await switches({ block: { status: 429, retryAfterSeconds: 2, times: 1 } });
    const began = Date.now();
    const first = await ended((await scrape(marketplaceId, 1, 1)).id);
    expect(first).toMatchObject({ status: 'completed', totalProducts: 8 });
    expect(Date.now() - began).toBeGreaterThanOrEqual(2_000);
    await switches({ block: { status: 403, times: 2 } });
    expect(await ended((await scrape(marketplaceId, 2, 2)).id)).toMatchObject({ status: 'completed', totalProducts: 8 });
    // A wall that stays: the page fails after its tries and says why; the job with it.
    await switches({ block: { status: 403 } });
    try {
      const walled = await ended((await scrape(marketplaceId, 1, 1)).id, 90_000);
      expect(walled.status).toBe('failed');
      expect(walled.error).toContain('The marketplace answered 403');
    } finally {
      await switches({ block: null });
    }
  });

  it('cancels a running job within 5 s, and resume reads only the pages it had not completed', { timeout: 120_000 }, async () => {
    // The site holds page 3 until the test lets it go: the cancel has to stop a page read under way.
    const pageThree = site.faults.add({ kind: 'hold', pathPrefix: '/categories/', query: { page: '3' } });
    try {
      const started = await scrape(marketplaceId, 1, 3);
      // Two pages at a time: pages 1 and 2 first, then 3, which the site holds.
      await eventually(async () => ((await job(started.id))?.currentPage ?? 0) >= 2 && site.faults.held().length === 1, 60_000, 'two pages completed, the third held');
      const cancelled = await call('POST', `/api/scraper/jobs/${started.id}/cancel`);
      expect(cancelled.body.data).toMatchObject({ status: 'cancelled' });
      const runs = async () => (await system.call('scraper', 'GET', '/internal/scraper/runs?kind=scrape-page&limit=200', undefined, asService('gateway'))).body.data as { status: string; progress: { counters: Record<string, number> } }[];
      await eventually(async () => (await runs()).every((run) => run.status !== 'in_progress' && run.status !== 'pending'), 60_000, 'every page run stopped');
      // Stopped while the site still held page 3: the read was given up (the scraper hung up on it),
      // not waited out, and not tried again.
      await eventually(() => site.faults.held().every((request) => request.clientGone), 10_000, 'the held read given up');
      expect(site.faults.held().map((request) => [request.rule, request.url])).toEqual([[pageThree.id, expect.stringContaining('page=3')]]);
      expect((await call('POST', `/api/scraper/jobs/${started.id}/cancel`)).status).toBe(409);
      const cancelledJob = await job(started.id);
      const completedBefore = cancelledJob.currentPage;
      site.faults.release(pageThree.id);

      const resumed = await call('POST', `/api/scraper/jobs/${started.id}/resume`);
      expect(resumed.body.data).toMatchObject({ status: 'pending', error: null });
      const done = await ended(started.id);
      expect(done).toMatchObject({ status: 'completed', currentPage: 3, totalProducts: 20 });
      // Only the pages not completed got a run again.
      const pageRuns = await system.running('scraper')!.prisma as unknown as { scrapePage: { findMany(args: object): Promise<{ pageNumber: number; runId: string }[]> } };
      const pages = await pageRuns.scrapePage.findMany({ where: { jobId: started.id } });
      expect(pages).toHaveLength(3);
      expect((await runs()).filter((run) => run.status === 'completed').length).toBeGreaterThanOrEqual(3 - completedBefore);
      expect((await call('POST', `/api/scraper/jobs/${started.id}/resume`)).status).toBe(409);
    } finally {
      site.faults.release(pageThree.id);
    }
  });

  it('shares one job’s pages between two replicas (each takes pages through the runs’ leases) and stores each offer once', { timeout: 90_000 }, async () => {
    const replica = await system.replica('scraper');
    const db = system.running('scraper')!.prisma as unknown as { $queryRawUnsafe<T>(sql: string): Promise<T> };
    const workers = new Set<string>();
    await switches({ delayMs: 1_500 });
    const created = await call('POST', '/api/scraper/marketplaces', {
      name: 'Replicas', url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: JSON.stringify(DEFAULT_SCRAPE_CONFIG), paginationEnabled: true, paginationParam: 'page',
    });
    try {
      // Eight pages of 1.5 s each (pages 4 to 8 past the listing's end), two at a time per worker: 6 s
      // for one alone, while the other finds pending pages within its 2 s look, so the pages in
      // progress name both (a lease owner is `<host>:<pid>:<instance>:<take>`).
      const started = await scrape(created.body.data.id, 1, 8);
      await eventually(async () => {
        const holders = await db.$queryRawUnsafe<{ lease_owner: string }[]>(`SELECT lease_owner FROM "scraper".runs WHERE kind = 'scrape-page' AND status = 'in_progress' AND lease_owner IS NOT NULL`);
        for (const holder of holders) workers.add(holder.lease_owner.split(':').slice(0, 3).join(':'));
        return workers.size >= 2;
      }, 30_000, 'pages held by both replicas');
      expect(await ended(started.id)).toMatchObject({ status: 'completed', currentPage: 8, totalProducts: 20 });
      const stored = (await products()).filter((product) => product.marketplaceId === created.body.data.id);
      expect(stored).toHaveLength(20);
      expect(new Set(stored.map((product) => product.sourceUrl)).size).toBe(20);
    } finally {
      await switches({ delayMs: 0 });
      await replica.stop();
      // Its products would count in the tests after this one.
      await call('DELETE', `/api/scraper/marketplaces/${created.body.data.id}`);
    }
  });

  it('reads a marketplace’s pages in the tabs it keeps, and takes the try after a 429 in a fresh one', { timeout: 60_000 }, async () => {
    const { browsers, reader } = (system.running('scraper') as unknown as { exposed: { browsers: BrowserHolder; reader: ListingReader } }).exposed;
    const source: ListingSource = { url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: DEFAULT_SCRAPE_CONFIG as never, paginationEnabled: true, paginationParam: 'page' };
    const read = (pageNumber: number) => reader.read(source, pageNumber, new AbortController().signal);
    // Tabs the jobs above left waiting for this marketplace's host are not this test's.
    browsers.discardTabs(`${new URL(siteUrl).host} rendered`);
    await eventually(async () => (await browsers.openContexts()) === 0, 5_000, 'the waiting tabs closed');
    const opened = browsers.tabsOpened;
    for (const pageNumber of [1, 2, 3]) expect((await read(pageNumber)).cards.length).toBeGreaterThan(0);
    // One tab read all three, and waits for the next page.
    expect(browsers.tabsOpened - opened).toBe(1);
    expect(await browsers.openContexts()).toBe(1);
    // Refused with a 429: the waiting tab is closed, and the try after the Retry-After opens a new one.
    await switches({ block: { status: 429, retryAfterSeconds: 1, times: 1 } });
    expect((await read(1)).cards.length).toBeGreaterThan(0);
    expect(browsers.tabsOpened - opened).toBe(2);
  });

  it('leaves no browser context open once the jobs above ended: completed, failed on the layout, retried past a 429 and a 403, cancelled mid-page', { timeout: 30_000 }, async () => {
    const { browsers } = (system.running('scraper') as unknown as { exposed: { browsers: BrowserHolder } }).exposed;
    await eventually(async () => (await browsers.openContexts()) === 0, 10_000, 'every context closed');
  });

  it('finishes a job across a restart of the scraper half-way, and resumes a cancelled one after a restart; no product twice', { timeout: 150_000 }, async () => {
    await switches({ delayMs: 1_000 });
    try {
      const started = await scrape(marketplaceId, 1, 3);
      await eventually(async () => ((await job(started.id))?.currentPage ?? 0) >= 1, 60_000, 'a page completed');
      // Stopping hands the pages in hand back (pending); the restarted process takes them up at once.
      await system.restart('scraper');
      expect(await ended(started.id)).toMatchObject({ status: 'completed', currentPage: 3, totalProducts: 20, error: null });

      const second = await scrape(marketplaceId, 1, 3);
      await eventually(async () => ((await job(second.id))?.status ?? 'pending') === 'in_progress', 30_000, 'the job running');
      await call('POST', `/api/scraper/jobs/${second.id}/cancel`);
      await system.restart('scraper');
      expect((await call('POST', `/api/scraper/jobs/${second.id}/resume`)).status).toBe(200);
      expect(await ended(second.id)).toMatchObject({ status: 'completed', currentPage: 3, totalProducts: 20 });
      expect(await products()).toHaveLength(20);
    } finally {
      await switches({ delayMs: 0 });
    }
  });

  it('counts each game’s variations, compares each variation across marketplaces in USD and MNT with the cheapest marked, and deletes a variation and a game', { timeout: 90_000 }, async () => {
    await call('PUT', '/api/scraper/exchange-rate', { rate: 3400 });
    await call('PUT', '/api/scraper/commission-rate', { commissionRate: 10 });
    const second = await call('POST', '/api/scraper/marketplaces', { name: 'GameMarket B', url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: DEFAULT_SCRAPE_CONFIG, paginationEnabled: true, paginationParam: 'page' });
    await fetch(`${siteUrl}/__sim/prices/change`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ percent: 20, every: 5, gameSlug: 'genshin-impact' }) });
    expect(await ended((await scrape(second.body.data.id, 1, 3)).id)).toMatchObject({ status: 'completed', totalProducts: 20 });

    const games: ProductGame[] = (await call('GET', '/api/scraper/products/games')).body.data;
    expect(games.find((game) => game.gameName === 'Genshin Impact')).toMatchObject({ variations: 40, marketplaces: 2 });

    const compared = (await call('GET', `/api/scraper/comparison?gameName=${encodeURIComponent('Genshin Impact')}`)).body.data as { gameName: string; rows: ComparisonRow[] }[];
    expect(compared.map((game) => game.gameName)).toEqual(['Genshin Impact']);
    const rows = compared[0].rows;
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((row) => row.marketplaceName))).toEqual(new Set(['GameMarket', 'GameMarket B']));
    const variations = new Map<string, ComparisonRow[]>();
    for (const row of rows) variations.set(`${row.productName} / ${row.variationValue}`, [...(variations.get(`${row.productName} / ${row.variationValue}`) ?? []), row]);
    for (const [variation, offers] of variations) {
      const lowest = Math.min(...offers.map((row) => row.priceUsd));
      expect(offers.filter((row) => row.cheapest).map((row) => row.priceUsd), variation).toEqual(offers.filter((row) => row.priceUsd === lowest).map(() => lowest));
    }
    // No tier: the global 10 % on every price, at 3400 MNT per USD.
    for (const row of rows) expect(row.priceMnt).toBe(priceInMnt(row.priceUsd, 10, 3400));

    const one = rows[0].productId;
    expect((await call('DELETE', `/api/scraper/products/${one}`)).body).toEqual({ success: true });
    expect((await call('DELETE', `/api/scraper/products/${one}`)).status).toBe(404);
    expect((await call('DELETE', `/api/scraper/products/game/${encodeURIComponent('Genshin Impact')}`)).body).toEqual({ success: true, data: { deleted: 39 } });
    expect((await call('GET', '/api/scraper/products/games')).body.data.find((game: ProductGame) => game.gameName === 'Genshin Impact')).toBeUndefined();
    expect((await call('DELETE', `/api/scraper/products/game/${encodeURIComponent('Genshin Impact')}`)).status).toBe(404);
  });

  it('refuses a job for a disabled marketplace, one without a config, and pages in the wrong order, each saying why', async () => {
    const off = await call('POST', '/api/scraper/marketplaces', { name: 'Off', url: `${siteUrl}/categories/roblox`, scrapeConfig: DEFAULT_SCRAPE_CONFIG, enabled: false });
    expect((await call('POST', `/api/scraper/scrape/${off.body.data.id}`, { startPage: 1, endPage: 1 })).body.error).toBe('Off is disabled: enable it to scrape it');
    const bare = await call('POST', '/api/scraper/marketplaces', { name: 'Bare', url: `${siteUrl}/categories/roblox` });
    expect((await call('POST', `/api/scraper/scrape/${bare.body.data.id}`, { startPage: 1, endPage: 1 })).body.error).toBe('Bare has no scrape config: add one to say how its pages are read');
    expect((await call('POST', `/api/scraper/scrape/${marketplaceId}`, { startPage: 3, endPage: 2 })).body.error).toBe('Invalid body: endPage: End page must not be before the start page');
    expect((await call('POST', `/api/scraper/scrape/${marketplaceId}`, { startPage: 0, endPage: 2 })).body.error).toBe('Invalid body: startPage: Start page must be at least 1');
    expect((await call('POST', '/api/scraper/scrape/999999', { startPage: 1, endPage: 1 })).status).toBe(404);
  });

  describe('a page that aims inside', () => {
    let secret: Server;
    let secretHits = 0;
    let trap: Server;
    let trapUrl: string;

    beforeAll(async () => {
      secret = createServer((_request, response) => {
        secretHits++;
        response.end('<article class="offer-card">secret</article>');
      });
      await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
      const secretUrl = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;
      // An allowed host whose pages try every way into the machine: a redirect, a script's fetch and an image.
      trap = createServer((request, response) => {
        if (request.url?.startsWith('/redirect')) {
          response.writeHead(302, { location: `${secretUrl}/steal` }).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>
<article class="offer-card"><div class="offer-game">Trap</div><h3 class="offer-title">Gems</h3><span class="offer-price-amount">1.00</span></article>
<img src="http://169.254.169.254/latest/meta-data/">
<script>fetch('${secretUrl}/fetch').catch(() => {}); fetch('/redirect').catch(() => {}); new Image().src = 'http://10.0.0.1/x';</script>
</body></html>`);
      });
      await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
      trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
      await system.restart('scraper', { SCRAPER_ALLOWED_HOSTS: `${new URL(siteUrl).host},${new URL(trapUrl).host}` });
    }, 60_000);
    afterAll(async () => {
      await new Promise((resolve) => secret?.close(resolve));
      await new Promise((resolve) => trap?.close(resolve));
    });

    it('reads the page while every request inside is refused, and a listing that redirects inside fails saying why', { timeout: 90_000 }, async () => {
      const config = { ...DEFAULT_SCRAPE_CONFIG, waitForSelector: undefined, pagination: undefined, link: undefined };
      const page = await call('POST', '/api/scraper/marketplaces', { name: 'Trap', url: `${trapUrl}/listing`, scrapeConfig: config });
      const read = await ended((await scrape(page.body.data.id, 1, 1)).id);
      expect(read).toMatchObject({ status: 'completed', totalProducts: 1 });
      const redirecting = await call('POST', '/api/scraper/marketplaces', { name: 'Redirect', url: `${trapUrl}/redirect`, scrapeConfig: config });
      const refused = await ended((await scrape(redirecting.body.data.id, 1, 1)).id);
      expect(refused.status).toBe('failed');
      expect(refused.error).toMatch(/cannot be fetched: 127\.0\.0\.1 is loopback/);
      expect(secretHits).toBe(0);
    });
  });
});
