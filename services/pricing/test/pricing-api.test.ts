import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Identity } from '@bo/platform';
import { RedisCache } from '@bo/platform/cache';
import { openDatabase, type Database } from '@bo/platform/db';
import { RabbitMqTransport } from '@bo/platform/events';
import { MemoryOutsideRateLimit } from '@bo/platform/outside';
import type { Infrastructure } from '@bo/platform/runtime';
import { connectInfrastructure } from '@bo/platform/runtime';
import { createTestDatabase, type TestDatabase } from '@bo/platform/testing/database';
import { asService, identityEnv, signedBy } from '@bo/platform/testing/identity';
import { createTestVhost, type TestVhost } from '@bo/platform/testing/rabbitmq';
import { createEnvelope, pricingPriceUpdated, routesOwnedBy, type EventEnvelope } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildGoogleSheetsSimulator, defaultPriceList, PRICE_LIST_SPREADSHEET_ID, type GoogleSheetsSimulator } from '@bo/sim-google-sheets';
import { pricingEnvSchema } from '../src/config';
import type { RunningService } from '@bo/platform/service';
import type { PricingExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import pricing from '../src/service';

const logger = createLogger('pricing-test', 'silent');

const identity = (kind: Identity['kind'], isAdmin: boolean) => signedBy('gateway', { kind, userId: '1', email: 'someone@example.com', isAdmin, keyId: null });
const asAdmin = identity('admin', true);
const asUser = identity('user', false);
const asGateway = asService('gateway');

describe('pricing service on PostgreSQL, Redis, RabbitMQ and the Sheets simulator', () => {
  let testDb: TestDatabase;
  let vhost: TestVhost;
  let sheets: GoogleSheetsSimulator;
  let sheetsUrl: string;
  let infrastructure: Infrastructure;
  let service: RunningService<PrismaClient, PricingExposed>;
  const received: EventEnvelope[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('pricing');
    vhost = await createTestVhost('pricing');
    sheets = buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()] });
    sheetsUrl = await listen(sheets.simulator.app);
    const config = pricingEnvSchema.parse({
      PORT: '0',
      DATABASE_URL: testDb.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      AMQP_URL: vhost.url,
      ...identityEnv('pricing'),
      GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID,
      GOOGLE_SHEETS_ROOT_URL: sheetsUrl,
      GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)),
    });
    infrastructure = await connectInfrastructure(config, `pricing-test-${randomUUID()}`, logger);
    service = await pricing.start({ config, logger, infrastructure, checkReplies: true });
    await infrastructure.transport.consume({ service: 'price-listener', bindings: [pricingPriceUpdated.name] }, async ({ envelope }) => {
      received.push(envelope);
    });
  });

  afterAll(async () => {
    await service?.stop();
    await infrastructure?.close();
    await sheets?.simulator.app.close();
    await vhost?.delete();
    await testDb?.drop();
  });

  beforeEach(async () => {
    await sheets.simulator.faults.clear();
    await service.exposed.catalog.invalidate();
  });

  const sheetRows = () => sheets.state.view(PRICE_LIST_SPREADSHEET_ID)!.sheets[0].rows;

  it('serves the price list publicly, with its count, in both formats', async () => {
    const summary = await service.app.inject({ method: 'GET', url: '/api/prices' });
    expect(summary.statusCode).toBe(200);
    const body = summary.json();
    expect(body.count).toBe(sheetRows().length - 1);
    expect(body.data[0]).toMatchObject({ product: sheetRows()[1][3] });
    expect(body.stale).toBe(false);

    const array = (await service.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json();
    expect(Object.keys(array.data[0])).toEqual(['type', 'parent', 'woocommerceId', 'product', 'description', 'regularPrice', 'salePrice', 'status', 'stockStatus', 'attributes', 'categories']);
  });

  it('answers one product by name, and 404 for an unknown one', async () => {
    const name = sheetRows()[1][3];
    const found = await service.app.inject({ method: 'GET', url: `/api/prices/${encodeURIComponent(name.toUpperCase())}` });
    expect(found.statusCode).toBe(200);
    expect(found.json().data.product).toBe(name);
    const missing = await service.app.inject({ method: 'GET', url: '/api/prices/No%20such%20thing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toContain('No such thing');
  });

  it("answers payments a product's chargeable price (the sale price when there is one) in whole tugrik, 404 without one, and only to our services", async () => {
    const asPayments = asService('payments');
    const priceOf = (product: string, headers: Record<string, string> = asPayments) =>
      service.app.inject({ method: 'GET', url: `/internal/pricing/prices/${encodeURIComponent(product)}`, headers });
    expect((await priceOf('youtube premium 1 сар')).json()).toEqual({ product: 'YouTube Premium 1 сар', price: 17_000, stale: false });
    expect((await priceOf('PUBG Mobile UC - 660 UC')).json()).toMatchObject({ price: 38_000 });
    expect((await priceOf('No such thing')).statusCode).toBe(404);
    // A row whose price cell is not a whole amount cannot be charged.
    const view = sheets.state.view(PRICE_LIST_SPREADSHEET_ID)!;
    const reseed = async (rows: string[][]) => {
      sheets.state.seed({ id: view.id, title: view.title, sharedWith: view.sharedWith, sheets: [{ title: view.sheets[0].title, rows }] });
      await service.exposed.catalog.invalidate();
    };
    await reseed(view.sheets[0].rows.map((row) => (row[3] === 'Steam Wallet $20' ? row.map((cell, column) => (column === 5 ? 'call us' : cell)) : row)));
    try {
      expect((await priceOf('Steam Wallet $20')).json()).toEqual({ error: '"Steam Wallet $20" has no price in the price list' });
    } finally {
      await reseed(view.sheets[0].rows);
    }
    expect((await priceOf('PUBG Mobile UC - 660 UC', asAdmin)).statusCode).toBe(403);
    expect((await priceOf('PUBG Mobile UC - 660 UC', {})).statusCode).toBe(401);
  });

  it('serves repeated reads from the cache, so the sheet is read once', async () => {
    const before = sheets.simulator.journal.list().filter((e) => e.method === 'GET').length;
    for (let i = 0; i < 5; i++) await service.app.inject({ method: 'GET', url: '/api/prices' });
    const after = sheets.simulator.journal.list().filter((e) => e.method === 'GET').length;
    expect(after - before).toBe(1);
    // Each read of the sheet is on pricing's /metrics, made through the outside client around Google's SDK.
    const metrics = (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^outside_call_duration_seconds_count\{service="pricing",system="google-sheets",operation="values.get",outcome="ok"\} [1-9]\d*$/m);
    const status = (await service.app.inject({ method: 'GET', url: '/api/cache/status', headers: asAdmin })).json();
    expect(status).toMatchObject({ cached: true, ttlSeconds: 300 });
    expect(status.ageSeconds).toBeGreaterThanOrEqual(0);
  });

  it('refuses writes and cache routes to anonymous (401) and non-admin (403) callers', async () => {
    const row = (await service.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json().data[0];
    for (const [method, url, payload] of [
      ['POST', '/api/sheets/update', row],
      ['POST', `/api/prices/${encodeURIComponent(row.product)}`, { regularPrice: '1' }],
      ['GET', '/api/cache/status', undefined],
      ['POST', '/api/cache/invalidate', undefined],
    ] as const) {
      expect((await service.app.inject({ method, url, payload })).statusCode).toBe(401);
      expect((await service.app.inject({ method, url, payload, headers: asUser })).statusCode).toBe(403);
    }
    // A user's own signed header with its payload rewritten to claim admin: the signature no longer matches.
    const [signer, payload, signature] = asUser['x-internal-identity'].split('.');
    const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), kind: 'admin', isAdmin: true };
    const forged = { 'x-internal-identity': `${signer}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}` };
    const refused = await service.app.inject({ method: 'GET', url: '/api/cache/status', headers: forged });
    expect({ status: refused.statusCode, error: refused.json().error }).toEqual({ status: 403, error: "Identity refused: the identity header does not carry gateway's signature" });
  });

  it('writes an edited row to the sheet, refreshes the cache and publishes pricing.price.updated once', async () => {
    const row = (await service.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json().data[1];
    const edited = { ...row, regularPrice: '31337', salePrice: '' };
    const response = await service.app.inject({ method: 'POST', url: '/api/sheets/update', payload: edited, headers: asAdmin });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, woocommerceSync: 'not_configured', data: { regularPrice: '31337' } });

    expect(sheetRows()[2][5]).toBe('31337');
    const after = (await service.app.inject({ method: 'GET', url: `/api/prices/${encodeURIComponent(row.product)}` })).json();
    expect(after.data.price).toBe('31337');

    const copies = () => received.filter((e) => (e.payload as { product: string }).product === row.product).length;
    await expect.poll(copies, { timeout: 5_000 }).toBe(1);
    // Only once everything published before it has arrived may we say "once": a sentinel sent
    // after the edit's outbox row was marked sent reaches the same queue behind any second copy.
    await expect.poll(async () => (await service.prisma.$queryRawUnsafe<{ status: string }[]>(`SELECT status FROM pricing.outbox_events WHERE status <> 'sent'`)).length, { timeout: 5_000 }).toBe(0);
    const sentinel = createEnvelope(pricingPriceUpdated, { product: '__sentinel__', revision: 1, row: { ...row, product: '__sentinel__' }, previous: null });
    await infrastructure.transport.publish(sentinel);
    await expect.poll(() => received.some((e) => e.id === sentinel.id), { timeout: 5_000 }).toBe(true);
    expect(copies()).toBe(1);
    const event = received.find((e) => (e.payload as { product: string }).product === row.product)!;
    expect(event.payload).toMatchObject({ row: { regularPrice: '31337' }, previous: { regularPrice: row.regularPrice } });
    // The product's revision grows with each edit, so a consumer can skip an older one arriving late.
    await service.app.inject({ method: 'POST', url: '/api/sheets/update', payload: { ...edited, regularPrice: '31338' }, headers: asAdmin });
    await expect.poll(copies, { timeout: 5_000 }).toBe(2);
    const revisions = received.filter((e) => (e.payload as { product: string }).product === row.product).map((e) => (e.payload as { revision: number }).revision);
    expect(revisions[1]).toBe(revisions[0] + 1);
  });

  it('edits one product by name and accepts the single-cell form', async () => {
    const rows = (await service.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json().data;
    const byName = await service.app.inject({ method: 'POST', url: `/api/prices/${encodeURIComponent(rows[2].product)}`, payload: { salePrice: '999' }, headers: asAdmin });
    expect(byName.statusCode).toBe(200);
    expect(sheetRows()[3][6]).toBe('999');

    const cell = await service.app.inject({ method: 'POST', url: '/api/sheets/update', payload: { rowIndex: 3, columnIndex: 5, value: 4242 }, headers: asAdmin });
    expect(cell.statusCode).toBe(200);
    expect(sheetRows()[4][5]).toBe('4242');
  });

  it('rejects bad input with a 400 naming the field, and changes nothing', async () => {
    const before = JSON.stringify(sheetRows());
    const row = (await service.app.inject({ method: 'GET', url: '/api/prices?format=array' })).json().data[0];
    const cases = [
      [{ ...row, regularPrice: 12 }, 'regularPrice'],
      [{ ...row, status: undefined }, 'status'],
      [{ ...row, unknownField: 'x' }, 'unknownField'],
      [{ rowIndex: -1, columnIndex: 0, value: 'x' }, 'rowIndex'],
      [{ rowIndex: 0, columnIndex: 99, value: 'x' }, 'columnIndex'],
    ] as const;
    for (const [payload, field] of cases) {
      const response = await service.app.inject({ method: 'POST', url: '/api/sheets/update', payload, headers: asAdmin });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().error).toContain(field);
    }
    // A JSON body of the wrong type is a 400 that says so, on every route that takes a body.
    for (const url of ['/api/sheets/update', `/api/prices/${encodeURIComponent(row.product)}`]) {
      for (const payload of ['5', '"text"', '[]', 'true', 'null']) {
        const wrongType = await service.app.inject({ method: 'POST', url, payload, headers: { ...asAdmin, 'content-type': 'application/json' } });
        expect(wrongType.statusCode, `${url} ${payload}`).toBe(400);
        expect(wrongType.json().error, `${url} ${payload}`).toMatch(/^Invalid body: body: .*expected object/);
      }
    }
    const emptyEdit = await service.app.inject({ method: 'POST', url: `/api/prices/${encodeURIComponent(row.product)}`, payload: {}, headers: asAdmin });
    expect(emptyEdit.statusCode).toBe(400);
    const badFormat = await service.app.inject({ method: 'GET', url: '/api/prices?format=xml' });
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().error).toContain('format');
    expect(JSON.stringify(sheetRows())).toBe(before);
  });

  it('serves the last good copy, marked stale, when the sheet is down; a write then fails clearly', async () => {
    await service.app.inject({ method: 'GET', url: '/api/prices' }); // a good read saves the copy
    await service.exposed.catalog.invalidate();
    await sheets.simulator.faults.add({ pathPrefix: '/v4/', kind: 'status', status: 503, body: { error: { code: 503, message: 'down', status: 'UNAVAILABLE' } } });
    const stale = await service.app.inject({ method: 'GET', url: '/api/prices' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toMatchObject({ stale: true });
    expect(stale.json().count).toBe(sheetRows().length - 1);

    const row = stale.json().data[0];
    const write = await service.app.inject({ method: 'POST', url: `/api/prices/${encodeURIComponent(row.product)}`, payload: { regularPrice: '1' }, headers: asAdmin });
    expect(write.statusCode).toBe(503);
    expect(write.json().error).toMatch(/Google Sheets answered 503/);
    const reload = await service.app.inject({ method: 'POST', url: '/api/cache/invalidate', headers: asAdmin });
    expect(reload.statusCode).toBe(503);
  });

  it('answers a clear 503 when the sheet is down and no copy was ever saved', async () => {
    const emptyDb = await createTestDatabase('pricing_empty');
    let database: Database | undefined;
    let other: RunningService | undefined;
    try {
      database = await openDatabase(emptyDb.config);
      const cache = RedisCache.connect('redis://127.0.0.1:6379', `pricing-empty-${randomUUID()}:`);
      const transport = await RabbitMqTransport.connect({ url: vhost.url });
      const config = pricingEnvSchema.parse({
        PORT: '0', DATABASE_URL: emptyDb.url, ...identityEnv('pricing'),
        GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID, GOOGLE_SHEETS_ROOT_URL: sheetsUrl,
        GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)),
      });
      other = await pricing.start({
        config, logger,
        infrastructure: { database, cache, transport, lock: undefined as never, outsideLimit: new MemoryOutsideRateLimit(), readiness: [], close: async () => {} },
      });
      await sheets.simulator.faults.add({ pathPrefix: '/v4/', kind: 'status', status: 403, body: { error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } } });
      const response = await other.app.inject({ method: 'GET', url: '/api/prices' });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatch(/Price list unavailable: Google Sheets answered 403 PERMISSION_DENIED.*no saved copy/);
      await other.stop();
      other = undefined;
      await transport.close();
      await cache.close();
    } finally {
      await other?.stop();
      await database?.close();
      await emptyDb.drop();
    }
  });

  it('keeps serving prices from the sheet when Redis does not answer', async () => {
    const deadCache = RedisCache.connect('redis://127.0.0.1:9', 'pricing-dead:');
    const config = pricingEnvSchema.parse({
      PORT: '0', DATABASE_URL: testDb.url, ...identityEnv('pricing'),
      GOOGLE_SHEETS_SPREADSHEET_ID: PRICE_LIST_SPREADSHEET_ID, GOOGLE_SHEETS_ROOT_URL: sheetsUrl,
      GOOGLE_SERVICE_ACCOUNT_JSON: JSON.stringify(sheets.credentials(sheetsUrl)),
    });
    const withoutRedis = await pricing.start({
      config, logger,
      infrastructure: { ...infrastructure, cache: deadCache, readiness: [{ name: 'cache', check: () => deadCache.ping() }] },
    });
    try {
      const response = await withoutRedis.app.inject({ method: 'GET', url: '/api/prices' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ stale: false, count: sheetRows().length - 1 });
      expect((await withoutRedis.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
    } finally {
      await withoutRedis.stop();
      await deadCache.close();
    }
  });

  it('serves every route its contracts declare', async () => {
    for (const contract of routesOwnedBy('pricing')) expect(service.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
  });

  it('reports its readiness and configuration status', async () => {
    expect((await service.app.inject({ method: 'GET', url: '/ready' })).json()).toMatchObject({ ready: true });
    const status = (await service.app.inject({ method: 'GET', url: '/internal/pricing/config-status', headers: asGateway })).json();
    // Internal routes are for the gateway's own identity, not a person's, admin or not.
    expect((await service.app.inject({ method: 'GET', url: '/internal/pricing/config-status', headers: asAdmin })).statusCode).toBe(403);
    expect(status.items).toContainEqual({ name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: true });
  });
});
