/// <reference lib="dom" />
/**
 * The admin dashboard's first screen on the production build: how much JavaScript it ships before
 * the overview's stat cards show data (gzip and raw), how long that takes from navigation start,
 * and what the page waited on meanwhile (every script and call, when it started and ended, and
 * what each of the overview's calls costs the server, alone). Several cold loads, each in a fresh
 * browser context with the cache disabled and the signed-in admin's cookies; then the same once
 * the request log holds a month of requests. It builds web/dist itself (production) unless
 * web/dist is newer than every source, so it measures the code as it is.
 * Run: `npx tsx bench/web-first-screen.ts` (`BENCH_SMOKE=1`: 2 + 1 cold loads, a 10,000-row log,
 * each call 3 times). Targets are printed beside the figures, not asserted: it exits 0 unless it
 * cannot run. (The DOM library above types the probes that run inside the page.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { startEmbedded } from '@bo/embedded';
import { openDatabase } from '@bo/platform/db';
import { logRequestsSql } from '../gateway/src/store/request-log';
import type { APIRequestContext, Browser, BrowserContext } from 'playwright-core';
import { buildWebAppIfStale, launchBrowser, newContext, signInWithOidc, widths } from '../web/e2e/support';
import { modeLine, scaled } from './mode';

const COLD_LOADS = scaled(5, 2);
/** Rows put into the request log for the second round: a month of requests at this rate. */
const LOG_RATE_PER_SECOND = 0.4;
const LOG_ROWS = scaled(Math.round(30 * 86_400 * LOG_RATE_PER_SECOND), 10_000);
const FULL_LOG_COLD_LOADS = scaled(3, 1);
/** How often each of the overview's calls is timed on its own, one at a time, after the cold loads. */
const CALL_REPEATS = scaled(20, 3);
const READY_TIMEOUT_MS = 15_000;
const KB = 1024;
const targets = { gzipBytes: 250 * KB, readyMs: 1_500 };

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;
interface Script { url: string; raw: number; gzip: number }
/** One resource the page fetched, in ms since navigation start; `wait` is request sent → first byte. */
interface Fetched { path: string; kind: 'script' | 'call' | 'other'; start: number; wait: number; end: number; serverTiming: string }
interface Load { scripts: Script[]; readyMs: number; fetched: Fetched[] }

declare global {
  interface Window { statCardsReadyAt?: number }
}

/**
 * Runs in the page before any of its scripts: notes performance.now() (milliseconds since navigation
 * start) as soon as all four stat cards hold their answers in the DOM (painted within the next frame).
 * The labels are the English ones: the cold loads run in the default language.
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

/** Every resource of the page so far, by its own resource timing. */
function resourcesOfPage(): Fetched[] {
  return (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => {
    const url = new URL(entry.name);
    const kind = entry.initiatorType === 'fetch' || entry.initiatorType === 'xmlhttprequest' ? 'call' : url.pathname.endsWith('.js') ? 'script' : 'other';
    return {
      path: `${url.pathname}${url.search}`,
      kind,
      start: entry.startTime,
      wait: entry.responseStart - entry.requestStart,
      end: entry.responseEnd,
      serverTiming: entry.serverTiming.map((timing) => `${timing.name}${timing.duration ? `;dur=${timing.duration}` : ''}`).join(', '),
    };
  });
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
    // What the page fetched until then (scripts whose download had finished, calls), by its own resource timing.
    const fetched = (await page.evaluate(resourcesOfPage)).filter((entry) => entry.end <= readyMs);
    const scripts: Script[] = [];
    for (const entry of fetched) {
      const body = await bodies.get(new URL(entry.path, appUrl).href);
      if (body) scripts.push({ url: entry.path, raw: body.length, gzip: gzipSync(body).length });
    }
    return { scripts, readyMs, fetched };
  } finally {
    await context.close();
  }
}

interface CallAlone { path: string; median: number; max: number; serverTiming: string }

/**
 * Each of the overview's calls on its own, one at a time with nothing else in flight, with the
 * admin's session: what the call itself costs (this process hosts the system, so it is the
 * server's time plus a loopback round trip), and the gateway's Server-Timing header if it sends one.
 */
async function timeCallsAlone(api: APIRequestContext, appUrl: string, paths: string[]): Promise<CallAlone[]> {
  const rows: CallAlone[] = [];
  for (const path of paths) {
    const durations: number[] = [];
    let serverTiming = '';
    for (let repeat = 0; repeat < CALL_REPEATS; repeat++) {
      const started = performance.now();
      const response = await api.get(`${appUrl}${path}`);
      await response.body();
      durations.push(performance.now() - started);
      if (!response.ok()) throw new Error(`${path} answered ${response.status()}`);
      serverTiming = response.headers()['server-timing'] ?? '';
    }
    rows.push({ path, median: median(durations), max: Math.max(...durations), serverTiming });
  }
  return rows;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
const sum = (scripts: Script[], size: 'raw' | 'gzip') => scripts.reduce((total, script) => total + script[size], 0);
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const verdict = (value: number, target: number) => (value < target ? 'met' : 'MISSED');
const count = (value: number) => value.toLocaleString('en');

/** The calls (not scripts) the page made before the stat cards, in the order the first load made them. */
function callsBeforeCards(loads: Load[]): string[] {
  return [...new Set(loads[0].fetched.filter((entry) => entry.kind === 'call').map((entry) => entry.path))];
}

interface Measured {
  /** Cold loads with the request log as a fresh system has it (a few rows). */
  loads: Load[];
  /** Cold loads again once the request log holds LOG_ROWS rows. */
  fullLogLoads: Load[];
  alone: { empty: CallAlone[]; full: CallAlone[] };
  chromiumVersion: string;
  loadAtStart: string;
}

function report({ loads, fullLogLoads, alone, chromiumVersion, loadAtStart }: Measured): void {
  const gzip = loads.map((load) => sum(load.scripts, 'gzip'));
  const raw = loads.map((load) => sum(load.scripts, 'raw'));
  const ready = loads.map((load) => load.readyMs);
  const readyFull = fullLogLoads.map((load) => load.readyMs);
  const rows = [
    ['', 'median', 'max', 'target', ''],
    ['JS before stat cards (gzip)', kb(median(gzip)), kb(Math.max(...gzip)), `< ${kb(targets.gzipBytes)}`, verdict(Math.max(...gzip), targets.gzipBytes)],
    ['JS before stat cards (raw)', kb(median(raw)), kb(Math.max(...raw)), '', ''],
    ['navigation start → stat cards', ms(median(ready)), ms(Math.max(...ready)), `< ${ms(targets.readyMs)}`, verdict(median(ready), targets.readyMs)],
    [`  … with ${count(LOG_ROWS)} logged requests`, ms(median(readyFull)), ms(Math.max(...readyFull)), `< ${ms(targets.readyMs)}`, verdict(median(readyFull), targets.readyMs)],
  ];
  console.log(`\nAdmin dashboard first screen — production build, ${loads.length} cold loads (fresh context, cache disabled), 1440×900,`);
  console.log(`then ${fullLogLoads.length} more once the request log holds ${count(LOG_ROWS)} rows (a month of requests at ${LOG_RATE_PER_SECOND}/s)`);
  console.log(`Node ${process.version} · Chromium ${chromiumVersion} · 1 KB = 1024 bytes; gzip = node:zlib default level`);
  // Timings on a shared 2-core machine move with whatever else runs: show how busy it was.
  console.log(`load average (1, 5, 15 min) before the loads: ${loadAtStart} · at the end: ${load()}\n`);
  for (const row of rows) console.log(`  ${row[0].padEnd(36)}${row[1].padStart(10)}${row[2].padStart(10)}${row[3].padStart(12)}  ${row[4]}`);
  const perLoad = (list: Load[]) => list.map((load) => `${ms(load.readyMs)} / ${load.scripts.length} scripts / ${kb(sum(load.scripts, 'gzip'))}`).join(' · ');
  console.log(`\n  per load: ${perLoad(loads)}`);
  console.log(`  per load with ${count(LOG_ROWS)} logged requests: ${perLoad(fullLogLoads)}`);

  // The calls of every load, per path: when they went out and what they cost, in the page.
  console.log('\n  calls before the stat cards, over the first loads (ms since navigation; wait = request sent → first byte):');
  console.log(`    ${'median start'.padStart(12)} ${'median wait'.padStart(12)} ${'max wait'.padStart(10)} ${'median end'.padStart(11)}  call`);
  for (const path of callsBeforeCards(loads)) {
    const entries = loads.map((load) => load.fetched.find((entry) => entry.path === path)).filter((entry) => entry !== undefined);
    const waits = entries.map((entry) => entry.wait);
    const timing = entries.find((entry) => entry.serverTiming)?.serverTiming;
    console.log(
      `    ${ms(median(entries.map((entry) => entry.start))).padStart(12)} ${ms(median(waits)).padStart(12)} ${ms(Math.max(...waits)).padStart(10)} ${ms(median(entries.map((entry) => entry.end))).padStart(11)}  ${path}${timing ? `  (Server-Timing: ${timing})` : ''}`,
    );
  }

  const sentTiming = [...alone.empty, ...alone.full].some((row) => row.serverTiming);
  console.log(`\n  each of the overview's calls alone, ${CALL_REPEATS}× one at a time, warm: time to the whole answer, median / max`);
  console.log(`  (this process hosts the system: server time plus a loopback round trip${sentTiming ? '' : '; the gateway sends no Server-Timing header'}):`);
  console.log(`    ${'fresh log'.padStart(17)} ${`${count(LOG_ROWS)} rows`.padStart(17)}  call`);
  for (const [index, row] of alone.empty.entries()) {
    const full = alone.full[index];
    const timing = row.serverTiming || full.serverTiming;
    console.log(`    ${`${ms(row.median)} / ${ms(row.max)}`.padStart(17)} ${`${ms(full.median)} / ${ms(full.max)}`.padStart(17)}  ${row.path}${timing ? `  (Server-Timing: ${timing})` : ''}`);
  }

  const medianLoad = [...loads].sort((a, b) => a.readyMs - b.readyMs)[Math.floor((loads.length - 1) / 2)];
  console.log(`\n  what the median first load (${ms(medianLoad.readyMs)}) fetched before the stat cards (start → end, ms since navigation; gzip / raw for scripts):`);
  for (const entry of [...medianLoad.fetched].sort((a, b) => a.start - b.start)) {
    const script = medianLoad.scripts.find((candidate) => candidate.url === entry.path);
    const size = script ? `${kb(script.gzip).padStart(9)} ${kb(script.raw).padStart(9)}` : `${`wait ${ms(entry.wait)}`.padStart(19)}`;
    console.log(`    ${ms(entry.start).padStart(8)} → ${ms(entry.end).padStart(8)} ${size}  ${entry.path}`);
  }
}

/**
 * Fills the gateway's request log as a month of traffic would (40 endpoints, one answer in 50 an
 * error, times spread over 30 days), with the gateway's own statement (its log and hourly
 * counts): a fresh system's handful of rows would hide what the log's size costs.
 */
async function fillRequestLog(databaseUrl: string, rows: number): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    await database.pool.query(
      logRequestsSql(
        `SELECT '/api/endpoint-' || (n % 40) AS endpoint, 'GET' AS method, CASE WHEN n % 50 = 0 THEN 500 ELSE 200 END AS status_code,
                n % 90 AS response_time, now() - (n % 2592000) * interval '1 second' AS at
           FROM generate_series(1, $1::int) AS n`,
      ),
      [rows],
    );
    await database.pool.query('ANALYZE gateway.api_requests, gateway.api_request_hours');
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  console.log(modeLine());
  console.log(`web/dist: ${await buildWebAppIfStale()}`);
  const browser = await launchBrowser();
  const dataDir = await mkdtemp(join(tmpdir(), 'bo-web-first-screen-'));
  const system = await startEmbedded({ dataDir, port: 0, quiet: true });
  try {
    const signIn = await newContext(browser, widths.desktop);
    const page = await signIn.newPage();
    await signInWithOidc(page, system.url, 'admin@example.com');
    const session = await signIn.storageState();
    const { count: productCount } = (await (await page.request.get(`${system.url}/api/prices`)).json()) as { count: number };
    const coldLoads = async (times: number) => {
      const loads: Load[] = [];
      for (let run = 0; run < times; run++) loads.push(await coldLoad(browser, system.url, session, productCount));
      return loads;
    };

    const loadAtStart = load();
    const loads = await coldLoads(COLD_LOADS);
    // The chart's call comes after the cards, but it is the overview's too.
    const calls = [...callsBeforeCards(loads), '/api/analytics/timeline'];
    const empty = await timeCallsAlone(signIn.request, system.url, calls);
    await fillRequestLog(system.databaseUrl, LOG_ROWS);
    const fullLogLoads = await coldLoads(FULL_LOG_COLD_LOADS);
    const full = await timeCallsAlone(signIn.request, system.url, calls);
    await signIn.close();
    report({ loads, fullLogLoads, alone: { empty, full }, chromiumVersion: browser.version(), loadAtStart });
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
