import { chromium, type Browser } from 'playwright-core';
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

/** One Chromium per scraper process, started at its first page and again if it crashes; pages share it, each in a context of its own. */
export class BrowserHolder {
  private launching: Promise<Browser> | null = null;
  private closed = false;

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

  /** Browser contexts open now: each try at a page has one, closed whatever happens, so none between pages. */
  async openContexts(): Promise<number> {
    const browser = await this.launching?.catch(() => null);
    return browser?.contexts().length ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = await this.launching?.catch(() => null);
    this.launching = null;
    await browser?.close().catch(() => undefined);
  }
}
