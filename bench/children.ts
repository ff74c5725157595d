import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@bo/sim-kit';


const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 60_000;

export interface Child {
  name: string;
  url: string;
  process: ChildProcess;
}

/**
 * Runs `entry` (a .ts file under the repository root) as its own Node process through tsx, so it
 * has an event loop of its own, and waits until `healthPath` answers 200. Its output is kept and
 * printed only if it fails to start. With BENCH_CPU_PROFILE_DIR set, each child writes CPU
 * profiles (one per thread) into a folder of its name there when it stops (issue 19: where the gateway's time goes).
 */
export async function startChild(name: string, entry: string, env: Record<string, string>, healthPath = '/health'): Promise<Child> {
  const port = await freePort();
  const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
  // A V8 CPU profile of each child, written when it exits (open it in Chrome's DevTools).
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name.replaceAll(/\W+/g, '-'))}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(url + healthPath).then((r) => r.ok, () => false);
    if (ok) return { name, url, process: child };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not start (exit code ${child.exitCode ?? 'none, timed out'}):\n${output}`);
}

/** SIGTERM, then SIGKILL if it has not exited within 5 s. */
export async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = once(child.process, 'exit');
  child.process.kill('SIGTERM');
  const timer = setTimeout(() => child.process.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
