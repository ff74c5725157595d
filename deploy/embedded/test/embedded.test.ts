import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

  it('serves the dashboard, the API and prices through the gateway on PGlite', async () => {
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

  it('keeps its data across a restart: the sheet, and the saved price copy in PGlite', async () => {
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

    // With the sheet down after another restart, the copy saved in PGlite is what gets served.
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
