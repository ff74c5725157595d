import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { runningServer, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/postgres';

const holder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/hold-postgres.ts');

describe('the embedded PostgreSQL', () => {
  let parent: string;
  let server: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  const startHolder = async (folder: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', holder, folder], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
    expect(line).toMatch(/^postgres:\/\/postgres:.+@127\.0\.0\.1:\d+\/postgres/);
    return child;
  };
  const keptRows = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query('SELECT note FROM kept')).rows;
    } finally {
      await client.end();
    }
  };

  it('refuses a second start while its launcher lives, and stops by itself once its launcher is killed with SIGKILL', async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'embedded-pg-'));
    const folder = path.join(parent, 'postgres');
    const child = await startHolder(folder);
    const serverPid = (await runningServer(folder))!.pid;

    await expect(startEmbeddedPostgres(folder)).rejects.toThrow(/already running .*another `make start` holds it/);

    child.kill('SIGKILL');
    await once(child, 'exit');
    // Its watchdog saw the launcher go and asked for a fast shutdown: no server is left behind.
    await eventually(async () => (await runningServer(folder)) === null && !isAlive(serverPid), 60_000, 'the server to stop once its launcher is gone');

    server = await startEmbeddedPostgres(folder);
    expect(await keptRows(server.url)).toEqual([{ note: 'committed before the kill' }]);
    await server.stop();
    server = undefined;
  });

  it('takes over a server left running when its watchdog was killed too, and keeps what was committed', async () => {
    const folder = path.join(parent, 'postgres');
    const child = await startHolder(folder);
    const serverPid = (await runningServer(folder))!.pid;
    // The launcher and its watchdog both gone at once (a whole machine's processes killed but the server's).
    const watchdog = execFileSync('pgrep', ['-f', `postgres-watchdog.mjs ${serverPid}$`], { encoding: 'utf8' }).trim();
    process.kill(Number(watchdog), 'SIGKILL');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(await runningServer(folder)).toMatchObject({ pid: serverPid, orphaned: true });

    server = await startEmbeddedPostgres(folder);
    expect(isAlive(serverPid)).toBe(false);
    // One row from each launcher's start, the first test's and this one's.
    expect(await keptRows(server.url)).toEqual([{ note: 'committed before the kill' }, { note: 'committed before the kill' }]);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    expect((await client.query('SHOW server_version')).rows[0].server_version).toMatch(/^18\./);
    await client.end();
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
