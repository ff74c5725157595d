import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import type { Logger } from '@bo/platform';

/**
 * Chromium's flags: headless without a sandbox or GPU (a container), no background requests of its
 * own, no name resolution at all (every page request is answered through the outbound guard,
 * listing-reader.ts, so a request that slipped past the interception would reach nothing), and no
 * WebRTC traffic but through a proxy there is none of (STUN to an address goes around both).
 */
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // No GPU process of its own (about 50 MB a worker); the renderers keep their site isolation.
  '--in-process-gpu',
];

/** How long a tab may wait for the next listing page of its marketplace before it is closed. */
const TAB_IDLE_MS = 2_000;
/** Pages a tab reads before it is closed: Chromium's renderer grows by a few MB with each page it shows, and gives little back. */
const TAB_READS = 10;

/**
 * A browser tab (a context of its own with one page) kept open between listing pages of one
 * marketplace: opening a tab costs Chromium about three times the CPU of reading a page in one
 * already open (bench/scraper.ts), so a worker navigates the tabs it has. `T` is what its owner keeps
 * on it (the reader: the page's request routing for the read in hand).
 */
export interface BrowserTab<T> {
  readonly key: string;
  readonly context: BrowserContext;
  readonly page: Page;
  state: T;
  reads: number;
}

/** One Chromium per scraper process, started at its first page and again if it crashes; its tabs are reused per marketplace, each a context of its own. */
export class BrowserHolder {
  private launching: Promise<Browser> | null = null;
  private closed = false;
  /** Tabs opened since the start (each a new browser context): fewer than the pages read while tabs are reused. */
  tabsOpened = 0;
  /** Tabs between reads, by key; each closed after TAB_IDLE_MS unused. */
  private readonly idleTabs = new Map<string, Array<{ tab: BrowserTab<unknown>; timer: NodeJS.Timeout }>>();

  constructor(private readonly options: { executablePath: string; logger: Logger }) {}

  async browser(): Promise<Browser> {
    if (this.closed) throw new Error('The scraper is stopping');
    if (!this.launching) {
      const launching = chromium.launch({ executablePath: this.options.executablePath, args: FLAGS, headless: true });
      this.launching = launching;
      launching.then(
        (browser) =>
          browser.on('disconnected', () => {
            if (this.launching === launching) this.launching = null;
            if (!this.closed) this.options.logger.warn('Chromium went away; the next page starts it again');
          }),
        () => {
          if (this.launching === launching) this.launching = null;
        },
      );
    }
    return this.launching;
  }

  /**
   * A tab for `key` (a marketplace and how its pages are read): one left idle by an earlier read, or a
   * new one, its context made with `options` and prepared by `setup` (its routes) before its page opens.
   */
  async takeTab<T>(key: string, options: BrowserContextOptions, setup: (tab: { context: BrowserContext; state: T }) => Promise<void>, state: T): Promise<BrowserTab<T>> {
    for (let idle = this.idleTabs.get(key)?.pop(); idle; idle = this.idleTabs.get(key)?.pop()) {
      clearTimeout(idle.timer);
      const tab = idle.tab as BrowserTab<T>;
      if (!tab.page.isClosed()) {
        tab.state = state;
        return tab;
      }
    }
    const browser = await this.browser();
    const context = await browser.newContext(options);
    this.tabsOpened += 1;
    try {
      const tab = { key, context, state, reads: 0 } as { key: string; context: BrowserContext; page: Page; state: T; reads: number };
      await setup(tab);
      tab.page = await context.newPage();
      return tab;
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  /** A tab whose read went well, kept for the next read of its key for a while. */
  releaseTab(tab: BrowserTab<unknown>): void {
    tab.reads += 1;
    if (this.closed || tab.page.isClosed() || tab.reads >= TAB_READS) return void this.closeTab(tab);
    const idle = this.idleTabs.get(tab.key) ?? [];
    this.idleTabs.set(tab.key, idle);
    const entry = { tab, timer: setTimeout(() => (idle.splice(idle.indexOf(entry), 1), this.closeTab(tab)), TAB_IDLE_MS) };
    entry.timer.unref();
    idle.push(entry);
  }

  /** Closes a tab (a failed or aborted read: the next one starts clean). */
  closeTab(tab: BrowserTab<unknown>): void {
    void tab.context.close().catch(() => undefined);
  }

  /** Closes the idle tabs of `key` (the marketplace refused a page: the next try comes with fresh cookies and storage). */
  discardTabs(key: string): void {
    for (const { tab, timer } of this.idleTabs.get(key)?.splice(0) ?? []) {
      clearTimeout(timer);
      this.closeTab(tab);
    }
  }

  /** Browser contexts open now: one per read in hand and per idle tab, so none a short while after the last page. */
  async openContexts(): Promise<number> {
    const browser = await this.launching?.catch(() => null);
    return browser?.contexts().length ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const key of this.idleTabs.keys()) this.discardTabs(key);
    const browser = await this.launching?.catch(() => null);
    this.launching = null;
    await browser?.close().catch(() => undefined);
  }
}
