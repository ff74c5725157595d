/// <reference lib="dom" />
/**
 * The admin dashboard's first screen on the production build: how much JavaScript it ships before
 * the overview's stat cards show data (gzip and raw), and how long that takes from navigation
 * start. Several cold loads, each in a fresh browser context with the cache disabled and the
 * signed-in admin's cookies. It builds web/dist itself (production), so it measures the code as it
 * is. Run: `npx tsx bench/web-first-screen.ts`. Exits 0 unless it cannot run. (The DOM library
 * above types the probe that runs inside the page.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startEmbedded } from '@bo/embedded';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildWebApp, launchBrowser, newContext, signInWithOidc, widths } from '../web/e2e/support';

const COLD_LOADS = 5;
const READY_TIMEOUT_MS = 15_000;
const KB = 1024;
const targets = { gzipBytes: 250 * KB, readyMs: 1_500 };

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;
interface Script { url: string; raw: number; gzip: number }
interface Load { scripts: Script[]; readyMs: number }

declare global {
  interface Window { statCardsReadyAt?: number }
}

/**
 * Runs in the page before any of its scripts: notes performance.now() (milliseconds since navigation
 * start) as soon as all four stat cards hold their answers in the DOM (painted within the next frame).
 */
function watchStatCards(productCount: number): void {
  const filled = new RegExp(`^API StatusOnline.*Total Requests\\d+.*Products Synced${productCount}\\D.*Avg Response\\d+ms`);
  const observer = new MutationObserver(() => {
    const cards = document.querySelector('[data-testid="stat-cards"]');
    if (!cards || cards.getAttribute('aria-busy') !== 'false' || !filled.test(cards.textContent ?? '')) return;
    observer.disconnect();
    window.statCardsReadyAt = performance.now();
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-busy'] });
}

async function coldLoad(browser: Browser, appUrl: string, session: Session, productCount: number): Promise<Load> {
  const context = await newContext(browser, widths.desktop, session);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.addInitScript(watchStatCards, productCount);

    // Bodies still downloading when the context closes (the chart, after the cards) are not needed.
    const bodies = new Map<string, Promise<Buffer | null>>();
    page.on('response', (response) => {
      if ((response.headers()['content-type'] ?? '').includes('javascript')) bodies.set(response.url(), response.body().catch(() => null));
    });

    await page.goto(`${appUrl}/`, { waitUntil: 'commit' });
    const readyMs = (await (await page.waitForFunction(() => window.statCardsReadyAt, null, { timeout: READY_TIMEOUT_MS })).jsonValue()) as number;
    // Scripts whose download had finished by then, by the page's own resource timing.
    const loadedBefore = await page.evaluate(
      (readyAt) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) => entry.responseEnd <= readyAt).map((entry) => entry.name),
      readyMs,
    );
    const scripts: Script[] = [];
    for (const url of loadedBefore) {
      const body = await bodies.get(url);
      if (body) scripts.push({ url: new URL(url).pathname, raw: body.length, gzip: gzipSync(body).length });
    }
    return { scripts, readyMs };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
const sum = (scripts: Script[], size: 'raw' | 'gzip') => scripts.reduce((total, script) => total + script[size], 0);

function report(loads: Load[], chromiumVersion: string): void {
  const gzip = loads.map((load) => sum(load.scripts, 'gzip'));
  const raw = loads.map((load) => sum(load.scripts, 'raw'));
  const ready = loads.map((load) => load.readyMs);
  const verdict = (value: number, target: number) => (value < target ? 'met' : 'MISSED');
  const rows = [
    ['', 'median', 'max', 'target', ''],
    ['JS before stat cards (gzip)', kb(median(gzip)), kb(Math.max(...gzip)), `< ${kb(targets.gzipBytes)}`, verdict(Math.max(...gzip), targets.gzipBytes)],
    ['JS before stat cards (raw)', kb(median(raw)), kb(Math.max(...raw)), '', ''],
    ['navigation start → stat cards', ms(median(ready)), ms(Math.max(...ready)), `< ${ms(targets.readyMs)}`, verdict(median(ready), targets.readyMs)],
  ];
  console.log(`\nAdmin dashboard first screen — production build, ${loads.length} cold loads (fresh context, cache disabled), 1440×900`);
  console.log(`Node ${process.version} · Chromium ${chromiumVersion} · 1 KB = 1024 bytes; gzip = node:zlib default level`);
  // Timings on a shared 2-core machine move with whatever else runs: show how busy it was.
  console.log(`load average at the end: ${loadavg().map((load) => load.toFixed(2)).join(' ')}\n`);
  for (const row of rows) console.log(`  ${row[0].padEnd(32)}${row[1].padStart(10)}${row[2].padStart(10)}${row[3].padStart(12)}  ${row[4]}`);
  console.log(`\n  per load: ${loads.map((load) => `${ms(load.readyMs)} / ${load.scripts.length} scripts / ${kb(sum(load.scripts, 'gzip'))}`).join(' · ')}`);
  console.log('\n  scripts of the last load (gzip / raw):');
  for (const script of [...loads.at(-1)!.scripts].sort((a, b) => b.gzip - a.gzip)) {
    console.log(`    ${kb(script.gzip).padStart(10)} ${kb(script.raw).padStart(10)}  ${script.url}`);
  }
}

async function main(): Promise<void> {
  await buildWebApp();
  const dataDir = await mkdtemp(join(tmpdir(), 'bo-web-first-screen-'));
  const system = await startEmbedded({ dataDir, port: 0, quiet: true });
  const browser = await launchBrowser();
  try {
    const signIn = await newContext(browser, widths.desktop);
    const page = await signIn.newPage();
    await signInWithOidc(page, system.url, 'admin@example.com');
    const session = await signIn.storageState();
    const { count } = (await (await page.request.get(`${system.url}/api/prices`)).json()) as { count: number };
    await signIn.close();

    const loads: Load[] = [];
    for (let run = 0; run < COLD_LOADS; run++) loads.push(await coldLoad(browser, system.url, session, count));
    report(loads, browser.version());
  } finally {
    await browser.close();
    await system.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  console.error('web-first-screen could not run:', error);
  process.exit(1);
}
