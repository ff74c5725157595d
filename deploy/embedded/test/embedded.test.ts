import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedSystem } from '../src/launcher';

// Replies are read loosely here; their shapes are proven by the pricing and gateway suites.
const json = async (response: Response): Promise<any> => response.json();

describe('the embedded system (make start)', () => {
  let dataDir: string;
  let system: EmbeddedSystem | undefined;

  afterAll(async () => {
    await system?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the dashboard, the API and prices through the gateway on the embedded PostgreSQL', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'embedded-'));
    system = await startEmbedded({ dataDir, port: 0, quiet: true });

    const health = await fetch(`${system.url}/health`);
    expect(health.status).toBe(200);
    expect(await json(health)).toMatchObject({ status: 'healthy' });

    const prices = await json(await fetch(`${system.url}/api/prices`));
    expect(prices.count).toBeGreaterThan(10);
    expect(prices.stale).toBe(false);

    expect((await fetch(`${system.url}/api/auth/user`)).status).toBe(401);
    const index = await fetch(`${system.url}/`);
    expect(index.headers.get('content-type')).toContain('text/html');
  });

  it('lets no service stall another: a transaction held open in pricing leaves the gateway answering', async () => {
    const client = new pg.Client({ connectionString: system!.databaseUrl });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('LOCK TABLE pricing.pricing_data IN ACCESS EXCLUSIVE MODE');
      // The gateway reads and writes its own schema (a sign-in writes a session row) meanwhile.
      const started = Date.now();
      const login = await fetch(`${system!.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'nobody', password: 'wrong password' }), signal: AbortSignal.timeout(10_000) });
      expect(login.status).toBe(401);
      expect((await fetch(`${system!.url}/api/auth/user`, { signal: AbortSignal.timeout(10_000) })).status).toBe(401);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });

  it('keeps its data across a restart: the sheet, and the saved price copy in the embedded PostgreSQL', async () => {
    const sheetsUrl = system!.simulators.sheets.url;
    const view = await json(await fetch(`${sheetsUrl}/__sim/spreadsheets/sim-price-list`));
    view.sheets[0].rows[1][5] = '77777'; // the first product's regular price, changed "in the sheet"
    const seeded = await fetch(`${sheetsUrl}/__sim/spreadsheets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: view.id, title: view.title, sharedWith: view.sharedWith, sheets: view.sheets.map((s: { title: string; rows: string[][] }) => ({ title: s.title, rows: s.rows })) }),
    });
    expect(seeded.status).toBe(201);
    await system!.stop();

    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    const fresh = await json(await fetch(`${system.url}/api/prices?format=array`));
    expect(fresh.data[0].regularPrice).toBe('77777');

    // With the sheet down after another restart, the copy saved in the database is what gets served.
    await system.stop();
    system = await startEmbedded({ dataDir, port: 0, quiet: true });
    await fetch(`${system.simulators.sheets.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pathPrefix: '/v4/', kind: 'status', status: 503 }),
    });
    const stale = await json(await fetch(`${system.url}/api/prices?format=array`));
    expect(stale.stale).toBe(true);
    expect(stale.data[0].regularPrice).toBe('77777');
  });
});
