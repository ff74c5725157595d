import type { IncomingHttpHeaders } from 'node:http';
import type { BrowserContext, Route } from 'playwright-core';
import { UnsafeTarget, type GuardedAnswer, type OutboundGuard, type OutsideSystem } from '@bo/platform/outside';
import type { ScrapeConfig } from '@bo/proto';
import type { BrowserHolder } from './browser';
import type { RawCard } from './offer-fields';

/** What a job needs of its marketplace to read one of its pages. */
export interface ListingSource {
  url: string;
  scrapeConfig: ScrapeConfig;
  paginationEnabled: boolean;
  paginationParam: string | null;
}

export interface ListingPage {
  url: string;
  cards: RawCard[];
  /** The page count the pagination states, when the config says where and the page shows it. */
  totalPages: number | null;
  /** Requests of the page the outbound guard refused (a redirect or a script aiming inside). */
  refused: string[];
}

/** One read in a tab: the document to hand Chromium when it navigates, the requests refused, the read's signal. */
interface TabRead {
  unserved: GuardedAnswer | null;
  refused: UnsafeTarget[];
  signal: AbortSignal;
}

/** The marketplace answered the page with an error status (a bot wall's 403, a 429): its status and headers, for the retries. */
export class PageRefused extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(`The marketplace answered ${status}`);
  }
}

/** What a listing needs not load: reading cards needs the document, its scripts and data. */
const SKIPPED_RESOURCES = new Set(['image', 'media', 'font']);
/** Headers the guard's own request sets (its connection, an uncompressed body); the rest of the browser's go as they are. */
const REQUEST_HEADERS_DROPPED = new Set(['accept-encoding', 'connection', 'host', 'content-length']);
const ANSWER_HEADERS_DROPPED = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * The page's cards read in the page itself: each configured field's text, the link's attribute
 * resolved against the page, and the pagination's page count. Sent as source text, so nothing the
 * build adds to compiled functions has to exist in the page.
 */
const READ_CARDS = `(config) => {
  const text = (element) => (element && element.textContent ? element.textContent.replace(/\\s+/g, ' ').trim() : null) || null;
  const cards = Array.from(document.querySelectorAll(config.cardSelector)).slice(0, 1000).map((card) => {
    const fields = {};
    for (const [name, selector] of Object.entries(config.fields)) fields[name] = text(card.querySelector(selector));
    let link = null;
    if (config.link) {
      const element = card.querySelector(config.link.selector);
      const value = element ? element.getAttribute(config.link.attribute || 'href') : null;
      if (value) try { link = new URL(value, document.baseURI).href; } catch (_) { link = null; }
    }
    return { fields, link, text: text(card) || '' };
  });
  let totalPages = null;
  const pagination = config.pagination;
  if (pagination && pagination.totalPagesSelector) {
    const element = document.querySelector(pagination.totalPagesSelector);
    const value = element ? (pagination.totalPagesAttribute ? element.getAttribute(pagination.totalPagesAttribute) : element.textContent) : null;
    const count = parseInt(value || '', 10);
    if (count > 0) totalPages = count;
  }
  return { cards, totalPages };
}`;

/** The URL of page `pageNumber` (1-based) of a listing: the pagination parameter set while pagination is on (document 2 §5). */
export function listingPageUrl(source: ListingSource, pageNumber: number): string {
  const url = new URL(source.url);
  if (source.paginationEnabled && source.paginationParam) {
    const firstPage = source.scrapeConfig.pagination?.firstPage ?? 1;
    url.searchParams.set(source.paginationParam, String(pageNumber - 1 + firstPage));
  }
  return url.toString();
}

/**
 * Reads listing pages in Chromium. Every request the page makes (the document, its scripts and
 * data, each redirect) is answered through the outbound guard from here, so a page cannot make the
 * browser reach this machine or the private network. A marketplace's pages are read in tabs kept
 * between reads (each a browser context of its own); a try that fails, is aborted or is refused
 * leaves no tab behind, so the next starts in a fresh context. Tries, back-off, Retry-After and the breaker are the outside client's.
 */
export class ListingReader {
  private readonly systems = new Map<string, OutsideSystem>();

  constructor(
    private readonly deps: {
      browsers: BrowserHolder;
      guard: OutboundGuard;
      /** The outside client of one marketplace host (its breaker and metrics). */
      outsideFor(host: string): OutsideSystem;
      pageTimeoutMs: number;
    },
  ) {}

  async read(source: ListingSource, pageNumber: number, signal: AbortSignal): Promise<ListingPage> {
    const url = listingPageUrl(source, pageNumber);
    const host = new URL(url).host;
    let system = this.systems.get(host);
    if (!system) this.systems.set(host, (system = this.deps.outsideFor(host)));
    return system.run(
      { operation: 'readListingPage', idempotent: true, retryStatuses: [403], signal },
      (trySignal) => this.readOnce(url, source.scrapeConfig, trySignal),
      (error) => (error instanceof PageRefused ? { status: error.status, headers: error.headers } : error instanceof UnsafeTarget ? { status: 400 } : null),
    );
  }

  private async readOnce(url: string, config: ScrapeConfig, signal: AbortSignal): Promise<ListingPage> {
    const key = `${new URL(url).host} ${config.renderJavaScript ? 'rendered' : 'static'}`;
    // The document first, its redirects followed and checked here: Chromium is given the page where it landed.
    const document = await this.deps.guard.get(url, { timeoutMs: this.deps.pageTimeoutMs, signal, headers: { 'accept-encoding': 'identity' } });
    if (document.status >= 400) {
      // A bot wall's 403 or a 429: the next try comes in a fresh context (no cookie or storage of the refused ones).
      this.deps.browsers.discardTabs(key);
      const retryAfter = document.headers['retry-after'];
      throw new PageRefused(document.status, new Headers(typeof retryAfter === 'string' ? { 'retry-after': retryAfter } : {}));
    }
    const read: TabRead = { unserved: document, refused: [], signal };
    const tab = await this.deps.browsers.takeTab<TabRead | null>(key, { javaScriptEnabled: config.renderJavaScript, serviceWorkers: 'block' }, (opening) => this.prepare(opening), read);
    const close = () => this.deps.browsers.closeTab(tab);
    signal.addEventListener('abort', close, { once: true });
    let readWell = false;
    try {
      await tab.page.goto(document.url, { waitUntil: 'load', timeout: this.deps.pageTimeoutMs });
      // Cards whose prices a script fills in: wait for them. No card at all: the page is read as it is.
      if (config.waitForSelector && (await tab.page.locator(config.cardSelector).count()) > 0) {
        // Half the try at most: a selector that never matches leaves the page read as it is, within the try.
        await tab.page.waitForSelector(config.waitForSelector, { timeout: this.deps.pageTimeoutMs / 2 }).catch(() => undefined);
      }
      const cards = await tab.page.evaluate<{ cards: RawCard[]; totalPages: number | null }>(`(${READ_CARDS})(${JSON.stringify(config)})`);
      readWell = true;
      return { url: document.url, ...cards, refused: read.refused.map((refusal) => refusal.message) };
    } catch (error) {
      throw signal.aborted ? (signal.reason ?? error) : error;
    } finally {
      signal.removeEventListener('abort', close);
      // Between reads the tab's requests are refused; one whose read failed is closed, so the next starts clean.
      tab.state = null;
      if (readWell && !signal.aborted) this.deps.browsers.releaseTab(tab);
      else close();
    }
  }

  /** A new tab's context: no WebSocket, no peer-to-peer connection, and each request answered for the read in hand. */
  private async prepare(tab: { context: BrowserContext; state: TabRead | null }): Promise<void> {
    await tab.context.routeWebSocket(/.*/, (socket) => socket.close());
    // A listing needs no peer-to-peer connection: none is offered to the page's scripts.
    await tab.context.addInitScript('delete window.RTCPeerConnection; delete window.webkitRTCPeerConnection; delete window.RTCDataChannel;');
    await tab.context.route('**/*', (route) => {
      const read = tab.state;
      if (!read) return route.abort('blockedbyclient').catch(() => undefined);
      const request = route.request();
      if (read.unserved && request.isNavigationRequest() && request.url() === read.unserved.url) {
        const answer = read.unserved;
        read.unserved = null;
        return route.fulfill({ status: answer.status, headers: answerHeaders(answer.headers), body: answer.body }).catch(() => undefined);
      }
      return this.answer(route, read.refused, read.signal);
    });
  }

  /**
   * One request of the page, made by the guard (its address checked as it connects, its redirects
   * followed and checked) and handed to the browser. Chromium resolves no name itself (browser.ts).
   */
  private async answer(route: Route, refused: UnsafeTarget[], signal: AbortSignal): Promise<void> {
    const request = route.request();
    if (SKIPPED_RESOURCES.has(request.resourceType())) return route.abort('blockedbyclient').catch(() => undefined);
    try {
      const headers = Object.fromEntries(Object.entries(request.headers()).filter(([name]) => !REQUEST_HEADERS_DROPPED.has(name)));
      const answer = await this.deps.guard.fetch(request.url(), {
        method: request.method(),
        headers: { ...headers, 'accept-encoding': 'identity' },
        body: request.postDataBuffer() ?? undefined,
        timeoutMs: this.deps.pageTimeoutMs,
        signal,
      });
      await route.fulfill({ status: answer.status, headers: answerHeaders(answer.headers), body: answer.body });
    } catch (error) {
      if (error instanceof UnsafeTarget) refused.push(error);
      await route.abort(error instanceof UnsafeTarget ? 'blockedbyclient' : 'failed').catch(() => undefined);
    }
  }
}

function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || ANSWER_HEADERS_DROPPED.has(name)) continue;
    kept[name] = Array.isArray(value) ? value.join('\n') : value;
  }
  return kept;
}
