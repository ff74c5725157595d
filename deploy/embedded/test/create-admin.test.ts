import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedSystem } from '../src/launcher';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);

/** What `make create-admin` runs, against the data folder given. */
const createAdmin = (dataDir: string, username: string) =>
  run(process.execPath, ['--import', 'tsx', 'deploy/embedded/src/with-database.ts', process.execPath, '--import', 'tsx', 'gateway/src/cli/create-admin.ts', '--username', username, '--password', 'a long enough password'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    timeout: 60_000,
  });

const signIn = (system: EmbeddedSystem, username: string) =>
  fetch(`${system.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: 'a long enough password' }) });

describe('make create-admin on the embedded database', () => {
  let dataDir: string;
  let system: EmbeddedSystem | undefined;
  afterAll(async () => {
    await system?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('works on a fresh clone before the first start, and while the system runs', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'create-admin-'));
    const before = await createAdmin(dataDir, 'first');
    expect(before.stdout).toContain('The embedded system is not running; starting its database');
    expect(before.stdout).toContain('Local admin "first" is ready');

    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    expect((await signIn(system, 'first')).status).toBe(200);

    const during = await createAdmin(dataDir, 'second');
    expect(during.stdout).toContain('The embedded system is running; using its database');
    expect((await signIn(system, 'second')).status).toBe(200);
  }, 90_000); // two cold starts of PostgreSQL and a whole system: 25 s here when the machine is busy
});
