import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runningServer, startEmbeddedPostgres, type EmbeddedPostgres } from '../src/postgres';

const holder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/hold-postgres.ts');

describe('the embedded PostgreSQL', () => {
  let parent: string;
  let server: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('refuses a second start while its launcher lives, and takes over from a launcher killed with SIGKILL', async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'embedded-pg-'));
    const folder = path.join(parent, 'postgres');
    const child = spawn(process.execPath, ['--import', 'tsx', holder, folder], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
    expect(line).toMatch(/^postgres:\/\/postgres:.+@127\.0\.0\.1:\d+\/postgres/);

    await expect(startEmbeddedPostgres(folder)).rejects.toThrow(/already running .*another `make start` holds it/);

    child.kill('SIGKILL');
    await once(child, 'exit');
    const orphan = await runningServer(folder);
    expect(orphan).toMatchObject({ orphaned: true });

    server = await startEmbeddedPostgres(folder);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    expect((await client.query('SELECT note FROM kept')).rows).toEqual([{ note: 'committed before the kill' }]);
    expect((await client.query('SHOW server_version')).rows[0].server_version).toMatch(/^18\./);
    await client.end();
  });
});
