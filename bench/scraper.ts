import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { serviceMain } from '@bo/platform/scripts/service-paths';
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
 * were (two workers can only go faster where one leaves cores idle). Targets are reported, not asserted.
 */

const PAGES = scaled(200, 4);
const TARGET_PAGES_PER_MINUTE = 30;
const TARGET_MEMORY_MB = 600;
const TARGET_RATIO = 1.7;

/**
 * The memory of a process and every process under it (Chromium's), in MB: proportional set size
 * (smaps_rollup's Pss), so the pages Chromium's processes share are counted once, not once each.
 */
function treeMemoryMb(root: number): number {
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
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // Gone meanwhile.
    }
  }
  return kb / 1024;
}

/** A scraper worker as production runs one: its own process on the shared database and bus. */
async function startWorker(system: TestSystem, port: number, siteHost: string): Promise<ChildProcess> {
  const env = { ...process.env, ...system.env, ...identityEnv('scraper'), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', SCRAPER_ALLOWED_HOSTS: siteHost };
  const child = spawn(process.execPath, ['--import', 'tsx', serviceMain('scraper')], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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

async function scrapeJob(system: TestSystem, marketplaceId: number, measured: ChildProcess): Promise<{ seconds: number; peakMb: number; busyPercent: number; job: ScrapeJob }> {
  const cpuBefore = machineCpu();
  let peakMb = treeMemoryMb(measured.pid!);
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, treeMemoryMb(measured.pid!))), 500);
  const started = performance.now();
  try {
    const { body } = await system.call('scraper', 'POST', `/api/scraper/scrape/${marketplaceId}`, { startPage: 1, endPage: PAGES });
    if (!body.jobId) throw new Error(`the job did not start: ${JSON.stringify(body)}`);
    for (;;) {
      const jobs: ScrapeJob[] = (await system.call('scraper', 'GET', '/api/scraper/jobs?limit=10')).body.data;
      const job = jobs.find((one) => one.id === body.jobId)!;
      if (job.status === 'completed') {
        const cpuAfter = machineCpu();
        const busyPercent = ((cpuAfter.busy - cpuBefore.busy) / Math.max(1, cpuAfter.total - cpuBefore.total)) * 100;
        return { seconds: (performance.now() - started) / 1000, peakMb, busyPercent, job };
      }
      if (job.status !== 'pending' && job.status !== 'in_progress') throw new Error(`the job ended ${job.status}: ${job.error}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  // 20 Genshin offers × 80 sellers each at 8 a page: 200 pages.
  const site = buildMarketplaceSimulator({ sellersScale: 80 });
  const siteUrl = await listen(site.app);
  const system = await startTestSystem('bench_scraper', { services: ['scraper'] });
  const workers: ChildProcess[] = [];
  try {
    const host = new URL(siteUrl).host;
    workers.push(await startWorker(system, Number(new URL(system.url('scraper')).port), host));
    const marketplace = async (name: string) =>
      (await system.call('scraper', 'POST', '/api/scraper/marketplaces', { name, url: `${siteUrl}/categories/genshin-impact`, scrapeConfig: DEFAULT_SCRAPE_CONFIG, paginationEnabled: true, paginationParam: 'page' })).body.data.id as number;
    const one = await scrapeJob(system, await marketplace('One worker'), workers[0]);
    workers.push(await startWorker(system, await freePort(), host));
    const two = await scrapeJob(system, await marketplace('Two workers'), workers[0]);
    const perMinute = (run: { seconds: number }) => (PAGES / run.seconds) * 60;
    const ratio = perMinute(two) / perMinute(one);
    console.log(
      [
        modeLine(),
        `Scraper: ${PAGES} listing pages of the marketplace simulator in Chromium (8 offers a page, prices filled in by script), 2 pages at once per worker`,
        `  one worker:  ${one.seconds.toFixed(1)} s, ${perMinute(one).toFixed(0)} pages a minute (target ≥ ${TARGET_PAGES_PER_MINUTE}), ${one.job.totalProducts} products; peak memory (PSS) of the worker's process with its Chromium ${one.peakMb.toFixed(0)} MB (target < ${TARGET_MEMORY_MB} MB), ${two.peakMb.toFixed(0)} MB beside a second worker`,
        `  two workers: ${two.seconds.toFixed(1)} s, ${perMinute(two).toFixed(0)} pages a minute, ${ratio.toFixed(2)}× one worker (target ≥ ${TARGET_RATIO}×; this machine has ${availableParallelism()} cores)`,
        // Two workers can only be faster when one leaves cores idle: how busy the machine was says whether it could.
        `  the machine's cores were ${one.busyPercent.toFixed(0)} % busy with one worker, ${two.busyPercent.toFixed(0)} % with two`,
      ].join('\n'),
    );
  } finally {
    await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : (worker.once('exit', resolve), worker.kill('SIGTERM'))))));
    await system.stop();
    await site.app.close();
  }
}

await main();
