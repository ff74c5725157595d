import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { runningServer } from '../src/postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const faultOnSignal = path.join(root, 'platform/test/fixtures/processes/uncaught-on-signal.mjs');
const PASSWORD = 'a long enough password';

/** What `make create-admin` runs, against the data folder given. */
const createAdmin = (dataDir: string, username: string) =>
  run(process.execPath, ['--import', 'tsx', 'deploy/embedded/src/with-database.ts', process.execPath, '--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', username, '--password', PASSWORD], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    timeout: 120_000,
  });

const signIn = (url: string, username: string) => fetch(`${url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `make start`'s process (what its recipe runs once built), on a data folder of the test's; every
 * process it starts can be made to fail with SIGUSR2 (an injected exception nobody catches).
 */
function makeStart(dataDir: string) {
  const launcher: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'deploy/embedded/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SIMULATOR_BASE_PORT: '0', DATABASE_URL: '', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${faultOnSignal}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  launcher.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  launcher.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  return {
    launcher,
    exited,
    output: () => output,
    /** The URL of the n-th start of the system (1: the first), once it serves. */
    servingAt: (n: number) =>
      eventually(() => [...output.matchAll(/Back-office is running: (\S+)/g)][n - 1]?.[1], 240_000, `start ${n} of the system`, 200),
  };
}

// Issue 33: make start keeps the system running through a failure nobody caught (a kill by a
// signal, as an OOM killer's, takes the same way: distributed.test kills a process so), and a
// `kill -9` of make start itself leaves no server behind and loses nothing.
describe('make start, supervised', () => {
  let dataDir: string;
  const started: ReturnType<typeof makeStart>[] = [];
  afterAll(async () => {
    for (const { launcher } of started) launcher.kill('SIGKILL');
    if (dataDir) {
      const left = await runningServer(path.join(dataDir, 'postgres'));
      if (left) process.kill(left.pid, 'SIGINT');
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('makes an admin before the first start and while it runs; starts the system again after a failure nobody caught; after a SIGKILL of make start itself nothing is left running and nothing is lost', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'make-start-'));
    const folder = path.join(dataDir, 'postgres');
    const before = await createAdmin(dataDir, 'first');
    expect(before.stdout).toContain('The embedded system is not running; starting its database');

    const first = makeStart(dataDir);
    started.push(first);
    let url = await first.servingAt(1);
    expect((await signIn(url, 'first')).status).toBe(200);
    const during = await createAdmin(dataDir, 'second');
    expect(during.stdout).toContain('The embedded system is running; using its database');

    // An exception nobody caught ends the system's process with its last line; it is started again on the same data.
    const systemPid = Number(await readFile(path.join(folder, 'launcher.pid'), 'utf8'));
    process.kill(systemPid, 'SIGUSR2');
    url = await first.servingAt(2);
    const fatal = first.output().split('\n').find((line) => line.startsWith('{') && JSON.parse(line).level === 60);
    expect(JSON.parse(fatal!)).toMatchObject({ origin: 'uncaught exception', err: { message: 'injected fault: an exception nobody catches' } });
    expect(first.output()).toContain('The system ended with exit code 1; starting it again');
    expect(isAlive(systemPid)).toBe(false);
    expect((await signIn(url, 'second')).status).toBe(200);

    // `kill -9` of make start: the system stops itself, its database with it; nothing is left running.
    const secondPid = Number(await readFile(path.join(folder, 'launcher.pid'), 'utf8'));
    const serverPid = (await runningServer(folder))!.pid;
    first.launcher.kill('SIGKILL');
    await eventually(() => !isAlive(secondPid) && !isAlive(serverPid), 120_000, 'the system and its database to stop once make start is gone', 200);
    expect(first.output()).toContain('The supervisor (make start) is gone: the system stops.');
    expect(await runningServer(folder)).toBeNull();

    // Started again on the same folder: healthy, with what was there.
    const again = makeStart(dataDir);
    started.push(again);
    url = await again.servingAt(1);
    expect((await signIn(url, 'first')).status).toBe(200);
    expect((await signIn(url, 'second')).status).toBe(200);
    again.launcher.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    expect(await runningServer(folder)).toBeNull();
  }, 900_000);
});
