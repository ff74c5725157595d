import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';

const holder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/processes/hold-transactions.ts');

// Issue 33: "a dropped database connection never ends a process". The connections are cut while
// the process holds two transactions between their queries, the moment pg-pool does not listen.
describe('a database connection lost mid-transaction', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;

  beforeAll(async () => {
    database = await createTestDatabase('connection_loss');
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it('fails the transactions as transient, keeps the process alive, and the pool serves again', async () => {
    const viaProxy = Object.assign(new URL(database.url), { port: String(proxy.port) }).toString();
    const child = spawn(process.execPath, ['--import', 'tsx', holder, viaProxy], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`the process ended (exit code ${await exited}): ${stderr}`);
      return JSON.parse(line.value) as Record<string, unknown>;
    };
    try {
      expect(await next()).toEqual({ between: true });
      proxy.refuse();
      proxy.cutAll();
      child.stdin.write('cut\n');
      expect(await next()).toEqual({ pool: 'transient', prisma: 'transient' });
      expect(await next()).toEqual({ waiting: 'resume' });
      proxy.resume();
      child.stdin.write('resumed\n');
      expect(await next()).toEqual({ afterwards: 42 });
      expect(await exited).toBe(0);
      expect(stderr).not.toMatch(/Connection terminated/);
    } finally {
      proxy.resume();
      child.kill('SIGKILL');
    }
  });
});
