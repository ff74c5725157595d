/**
 * `make bench`, the embedded start (issue 19): `make start` as a person runs it (the build is
 * skipped when nothing changed), on a fresh data folder and then again on the same folder, timed
 * from the command until the gateway answers /health, with the start time and memory its banner
 * prints. Targets are printed beside the figures, not asserted; the exit code is 1 only when the
 * system does not start. `npx tsx bench/embedded-start.ts`
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bo/sim-kit';
import { modeLine, smoke } from './mode';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_FRESH_MS = 20_000;
const START_TIMEOUT_MS = 120_000;

interface Start {
  healthyMs: number;
  banner: string;
}

/** `make start` until /health answers, then Ctrl-C (SIGINT to its process group) until it exits. */
async function timedStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('make', ['--no-print-directory', 'start'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), SIMULATOR_BASE_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`make start exited with ${child.exitCode}:\n${output.slice(-4_000)}`);
      if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`make start was not healthy within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-4_000)}`);
      if (await fetch(`http://localhost:${port}/health`).then((response) => response.ok, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const healthyMs = performance.now() - started;
    // The banner follows the gateway's listen by a moment.
    while (!/Started:.*\n/.test(output) && performance.now() - started < START_TIMEOUT_MS) await new Promise((resolve) => setTimeout(resolve, 50));
    return { healthyMs, banner: /Started:\s*(.*)/.exec(output)?.[1] ?? '(no banner line)' };
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-embedded-start-'));
  try {
    console.log(modeLine());
    console.log(`make start, timed from the command to the gateway's /health (the build already done), load average before ${os.loadavg()[0].toFixed(2)}`);
    const fresh = await timedStart(dataDir);
    console.log(`  fresh data folder: ${(fresh.healthyMs / 1000).toFixed(1)} s  (target < ${TARGET_FRESH_MS / 1000} s: ${fresh.healthyMs < TARGET_FRESH_MS ? 'met' : 'NOT met'}); banner: started ${fresh.banner}`);
    if (!smoke) {
      const again = await timedStart(dataDir);
      console.log(`  the same folder again: ${(again.healthyMs / 1000).toFixed(1)} s; banner: started ${again.banner}`);
    }
    return 0;
  } catch (error) {
    console.error(`embedded-start could not run: ${(error as Error).message}`);
    return 1;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
