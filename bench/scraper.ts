import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { bundleService, serviceNodeArgs } from '@bo/platform/scripts/service-bundle';
import { loadServiceDefinition } from '@bo/platform/service';
import { eventually } from '@bo/platform/testing/eventually';
import { identityEnv } from '@bo/platform/testing/identity';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import type { ScrapeJob } from '@bo/proto';
import { freePort, listen } from '@bo/sim-kit';
import { buildMarketplaceSimulator, DEFAULT_SCRAPE_CONFIG } from '@bo/sim-marketplace';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, the scraper (issue 22): a job of PAGES listing pages of the marketplace simulator
 * (8 offers a page, each price filled in by a script, so Chromium renders every page) read by one
 * scraper worker, then another job of as many pages by two; a worker reads SCRAPER_PAGES_PER_WORKER
 * (2) pages at once. Each worker is a scraper process of its own with its own Chromium, as a replica
 * runs in production. Pages a minute per worker, the peak memory of the first worker's process with
 * its Chromium (nothing else counted), two workers against one, and how busy the machine's cores
 * were (two workers can only go faster where one leaves cores idle). Then the same with the
 * marketplace answering each page in SLOW_PAGE_MS, as a real site does: there a worker mostly waits,
 * so the pages two workers share show whether sharing itself scales. Targets are reported, not asserted.
 */

const PAGES = scaled(200, 4);
const SLOW_PAGES = scaled(100, 4);
const SLOW_PAGE_MS = 1_000;
const TARGET_PAGES_PER_MINUTE = 30;
const TARGET_MEMORY_MB = 600;
const TARGET_RATIO = 1.7;

/**
 * The memory of a process and every process under it (Chromium's), in MB: proportional set size
 * (smaps_rollup's Pss), so the pages Chromium's processes share are counted once, not once each;
 * and of the process alone (the worker's Node).
 */
function treeMemoryMb(root: number): { tree: number; own: number } {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // The process ended while the list was read.
    }
  }
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && parents.has(pid) && inTree(parents.get(pid)!));
  let kb = 0;
  let ownKb = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      const pss = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      kb += pss;
      if (pid === root) ownKb = pss;
    } catch {
      // Gone meanwhile.
    }
  }
  return { tree: kb / 1024, own: ownKb / 1024 };
}

/**
 * A scraper worker as production runs one: its own process on the shared database and bus, its
 * bundle run with its node options (the container's command), its default Chromium.
 */
async function startWorker(system: TestSystem, port: number, siteHost: string): Promise<ChildProcess> {
  const env = { ...process.env, ...system.env, ...identityEnv('scraper'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', SCRAPER_ALLOWED_HOSTS: siteHost };
  const child = spawn(process.execPath, serviceNodeArgs(await loadServiceDefinition('scraper')), { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the scraper worker exited with ${child.exitCode}`);
    return fetch(`http://127.0.0.1:${port}/ready`).then((response) => response.ok, () => false);
  }, 60_000, 'the scraper worker ready');
  return child;
}

/** The machine's CPU time so far (/proc/stat's first line, in clock ticks): busy and all. */
function machineCpu(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = ticks[3] + ticks[4]; // idle and iowait
  const total = ticks.slice(0, 8).reduce((sum, tick) => sum + tick, 0);
  return { busy: total - idle, total };
}

interface JobRun {
  pages: number;
  seconds: number;
  /** Peak PSS of the measured worker with its Chromium, and of its Node process alone. */
  peakMb: number;
  peakNodeMb: number;
  busyPercent: number;
  job: ScrapeJob;
}

async function scrapeJob(system: TestSystem, marketplaceId: number, pages: number, measured: ChildProcess): Promise<JobRun> {
  const cpuBefore = machineCpu();
  let peakMb = 0;
  let peakNodeMb = 0;
  const sample = () => {
    const memory = treeMemoryMb(measured.pid!);
    peakMb = Math.max(peakMb, memory.tree);
    peakNodeMb = Math.max(peakNodeMb, memory.own);
  };
  sample();
  const sampler = setInterval(sample, 500);
  const started = performance.now();
  try {
    const { body } = await system.call('scraper', 'POST', `/api/scraper/scrape/${marketplaceId}`, { startPage: 1, endPage: pages });
    if (!body.jobId) throw new Error(`the job did not start: ${JSON.stringify(body)}`);
    for (;;) {
      const jobs: ScrapeJob[] = (await system.call('scraper', 'GET', '/api/scraper/jobs?limit=10')).body.data;
      const job = jobs.find((one) => one.id === body.jobId)!;
      if (job.status === 'completed') {
        const cpuAfter = machineCpu();
        const busyPercent = ((cpuAfter.busy - cpuBefore.busy) / Math.max(1, cpuAfter.total - cpuBefore.total)) * 100;
        return { pages, seconds: (performance.now() - started) / 1000, peakMb, peakNodeMb, busyPercent, job };
      }
      if (job.status !== 'pending' && job.status !== 'in_progress') throw new Error(`the job ended ${job.status}: ${job.error}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    clearInterval(sampler);
  }
}

const perMinute = (run: JobRun) => (run.pages / run.seconds) * 60;

async function main(): Promise<void> {
  // 20 Genshin offers × 80 sellers each at 8 a page: 200 pages.
  const site = buildMarketplaceSimulator({ sellersScale: 80 });
  const siteUrl = await listen(site.app);
  const pageDelay = async (delayMs: number) => {
    const answer = await fetch(`${siteUrl}/__sim/switches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs }) });
    if (!answer.ok) throw new Error(`the simulator's switches answered ${answer.status}`);
  };
  await bundleService('scraper');
  const system = await startTestSystem('bench_scraper', { services: ['scraper'] });
  const workers: ChildProcess[] = [];
  try {
    const host = new URL(siteUrl).host;
    const marketplace = async (name: string) =>
      (await system.call('scraper', 'POST', '/api/scraper/marketplaces', { name, url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: DEFAULT_SCRAPE_CONFIG, paginationEnabled: true, paginationParam: 'page' })).body.data.id as number;
    const jobOf = async (name: string, pages: number) => scrapeJob(system, await marketplace(name), pages, workers[0]);
    workers.push(await startWorker(system, Number(new URL(system.url('scraper')).port), host));
    const one = await jobOf('One worker', PAGES);
    await pageDelay(SLOW_PAGE_MS);
    const oneSlow = await jobOf('One worker, slow site', SLOW_PAGES);
    await pageDelay(0);
    workers.push(await startWorker(system, await freePort(), host));
    const two = await jobOf('Two workers', PAGES);
    await pageDelay(SLOW_PAGE_MS);
    const twoSlow = await jobOf('Two workers, slow site', SLOW_PAGES);
    const ratio = perMinute(two) / perMinute(one);
    const slowRatio = perMinute(twoSlow) / perMinute(oneSlow);
    console.log(
      [
        modeLine(),
        `Scraper: ${PAGES} listing pages of the marketplace simulator in Chromium (8 offers a page, prices filled in by script), 2 pages at once per worker`,
        `  one worker:  ${one.seconds.toFixed(1)} s, ${perMinute(one).toFixed(0)} pages a minute (target ≥ ${TARGET_PAGES_PER_MINUTE}), ${one.job.totalProducts} products; peak memory (PSS) of the worker's process with its Chromium ${one.peakMb.toFixed(0)} MB (target < ${TARGET_MEMORY_MB} MB), of its Node process alone ${one.peakNodeMb.toFixed(0)} MB; ${two.peakMb.toFixed(0)} MB beside a second worker`,
        `  two workers: ${two.seconds.toFixed(1)} s, ${perMinute(two).toFixed(0)} pages a minute, ${ratio.toFixed(2)}× one worker (target ≥ ${TARGET_RATIO}×; this machine has ${availableParallelism()} cores)`,
        // Two workers can only be faster when one leaves cores idle: how busy the machine was says whether it could.
        `  the machine's cores were ${one.busyPercent.toFixed(0)} % busy with one worker, ${two.busyPercent.toFixed(0)} % with two`,
        `  the site answering each page in ${SLOW_PAGE_MS} ms (${SLOW_PAGES} pages): one worker ${perMinute(oneSlow).toFixed(0)} pages a minute (cores ${oneSlow.busyPercent.toFixed(0)} % busy), two ${perMinute(twoSlow).toFixed(0)} (cores ${twoSlow.busyPercent.toFixed(0)} % busy), ${slowRatio.toFixed(2)}× one worker (target ≥ ${TARGET_RATIO}×)`,
      ].join('\n'),
    );
  } finally {
    await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : (worker.once('exit', resolve), worker.kill('SIGTERM'))))));
    await system.stop();
    await site.app.close();
  }
}

await main();
