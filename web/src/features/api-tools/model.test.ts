import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import type { OpenApiDocument, RequestLogEntry } from './api';
import {
  adminMayCall, catalogueOf, failureDetail, fillPath, filterCatalogue, isWrite, latestEntries, sameOriginPath, statusTone, testPathOf, testRequestOf,
} from './model';

const json = (example: unknown) => ({ content: { 'application/json': { example } } });

/** A document in the shape gateway/src/domain/openapi.ts builds, one operation of each kind the catalogue meets. */
const document: OpenApiDocument = {
  paths: {
    '/api/prices': {
      get: {
        operationId: 'getPrices', summary: 'The price list', tags: ['Prices'], 'x-access': 'public',
        parameters: [{ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['array', 'summary'] } }],
        responses: { 200: json({ success: true, count: 1 }), 400: json(undefined) },
      },
    },
    '/api/prices/{product}': {
      parameters: [{ name: 'product', in: 'path' }],
      post: {
        operationId: 'postPricesByProduct', summary: 'Change one product', tags: ['Prices'], 'x-access': 'admin',
        parameters: [{ name: 'product', in: 'path', required: true, schema: { type: 'string' }, example: 'Netflix 1 month' }],
        requestBody: json({ salePrice: '22000' }),
        responses: { 200: json({ success: true }), 401: { description: 'Not signed in' } },
      },
    },
    '/api/cache/invalidate': {
      post: { operationId: 'postCacheInvalidate', summary: 'Clear the cache', tags: ['Cache'], 'x-access': 'admin', responses: { 200: json({ success: true }) } },
    },
    '/api/customer/keys': {
      get: { operationId: 'getCustomerKeys', summary: "The session's keys", tags: ['Customer'], 'x-access': 'customer', responses: { 200: json({ keys: [] }) } },
    },
    '/api/customer/session': {
      get: { operationId: 'getCustomerSession', summary: 'Whether a customer is signed in', tags: ['Customer'], 'x-access': 'public', responses: { 200: json({ authenticated: false }) } },
    },
    '/api/no-access-said': {
      get: { operationId: 'getNoAccessSaid', summary: 'Says nothing about who may call it', tags: ['Other'], responses: { 200: json({}) } },
    },
    '/api/odd-access': {
      get: { operationId: 'getOddAccess', summary: 'An access the catalogue does not know', tags: ['Other'], 'x-access': 'internal' as never, responses: { 200: json({}) } },
    },
    '/api/admin/runs/pricing.{runId}/events': {
      get: {
        operationId: 'getAdminRunsPricingByRunIdEvents', summary: "A run's events", tags: ['Background work'], 'x-access': 'admin',
        parameters: [{ name: 'runId', in: 'path', required: true, example: '0b7c6a44-5a1e-4f0e-9d1c-2f7f9e2b1a10' }],
        responses: { 200: { content: { 'text/event-stream': { example: 'event: run\n' } } } },
      },
    },
    '/api/logout': {
      get: { operationId: 'getLogout', summary: 'Sign out', tags: ['Authentication'], 'x-access': 'public', responses: { 302: { description: 'Redirect' }, 400: json(undefined) } },
    },
    '/api/streaming-keys/emails-with-slots': {
      get: {
        operationId: 'getStreamingKeysEmailsWithSlots', summary: 'Account e-mails with free slots', tags: ['Streaming keys'], 'x-access': 'admin',
        parameters: [
          { name: 'service', in: 'query', required: true, schema: { type: 'string' }, example: 'NFX' },
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer' }, example: 10 },
        ],
        responses: { 200: json({ data: [] }) },
      },
    },
    '/api/scraper/jobs/{id}': {
      delete: {
        operationId: 'deleteScraperJobsById', summary: 'A route whose example is missing', tags: ['Scraper'], 'x-access': 'admin',
        parameters: [{ name: 'id', in: 'path', required: true }],
        responses: { 200: json({ success: true }) },
      },
    },
  },
};

describe('who may call what', () => {
  it('lets an admin call admin and public operations only: never customer ones, internal ones or ones that do not say', () => {
    expect(adminMayCall('admin')).toBe(true);
    expect(adminMayCall('public')).toBe(true);
    for (const access of ['customer', 'internal', undefined, null, 'ADMIN', '']) expect(adminMayCall(access), String(access)).toBe(false);
  });
});

describe('the catalogue read from the OpenAPI document', () => {
  const catalogue = catalogueOf(document);
  const byId = (id: string) => catalogue.endpoints.find((endpoint) => endpoint.id === id);

  it('lists only what the admin may call, grouped by category in the order the document names them', () => {
    expect(catalogue.endpoints.map((endpoint) => endpoint.id)).toEqual([
      'getPrices', 'postPricesByProduct', 'postCacheInvalidate', 'getCustomerSession', 'getAdminRunsPricingByRunIdEvents', 'getLogout', 'getStreamingKeysEmailsWithSlots', 'deleteScraperJobsById',
    ]);
    expect(catalogue.categories.map((category) => [category.name, category.endpoints.length])).toEqual([
      ['Prices', 2], ['Cache', 1], ['Customer', 1], ['Background work', 1], ['Authentication', 1], ['Streaming keys', 1], ['Scraper', 1],
    ]);
    expect(byId('getCustomerKeys')).toBeUndefined();
    expect(byId('getNoAccessSaid')).toBeUndefined();
    expect(byId('getOddAccess')).toBeUndefined();
  });

  it("carries each operation's method, path, summary, access, parameters and examples", () => {
    expect(byId('postPricesByProduct')).toEqual({
      id: 'postPricesByProduct',
      method: 'POST',
      path: '/api/prices/{product}',
      summary: 'Change one product',
      category: 'Prices',
      access: 'admin',
      parameters: [{ name: 'product', in: 'path', required: true, type: 'string', example: 'Netflix 1 month' }],
      requestExample: { salePrice: '22000' },
      responseExample: { success: true },
      untestable: null,
    });
    expect(byId('getPrices')).toMatchObject({ access: 'public', requestExample: undefined, responseExample: { success: true, count: 1 } });
    expect(byId('getPrices')!.parameters).toEqual([{ name: 'format', in: 'query', required: false, type: 'array | summary', example: undefined }]);
  });

  it('marks what one fetch cannot try: a stream, a redirect, a path parameter without an example', () => {
    expect(byId('getAdminRunsPricingByRunIdEvents')!.untestable).toBe('stream');
    expect(byId('getLogout')!.untestable).toBe('redirect');
    expect(byId('deleteScraperJobsById')!.untestable).toBe('missingExample');
    expect(byId('getPrices')!.untestable).toBeNull();
  });

  it('is empty for no document or one without paths', () => {
    expect(catalogueOf(undefined)).toEqual({ endpoints: [], categories: [] });
    expect(catalogueOf({})).toEqual({ endpoints: [], categories: [] });
  });

  it('filters by every word typed, in method, path, summary or category, keeping the groups that still hold some', () => {
    const names = (text: string) => filterCatalogue(catalogue.categories, text).map((category) => [category.name, category.endpoints.map((endpoint) => endpoint.id)]);
    expect(names('')).toHaveLength(catalogue.categories.length);
    expect(names('  post  ')).toEqual([['Prices', ['postPricesByProduct']], ['Cache', ['postCacheInvalidate']]]);
    expect(names('PRICES change')).toEqual([['Prices', ['postPricesByProduct']]]);
    expect(names('cache')).toEqual([['Cache', ['postCacheInvalidate']]]);
    expect(names('nothing like this')).toEqual([]);
  });
});

describe("a Test's request", () => {
  it('fills path parameters from their examples, encoded, also inside a segment', () => {
    expect(fillPath('/api/prices/{product}', { product: 'Netflix 1/2 month?' })).toEqual({ path: '/api/prices/Netflix%201%2F2%20month%3F' });
    expect(fillPath('/api/admin/runs/pricing.{runId}/retry', { runId: 'abc' })).toEqual({ path: '/api/admin/runs/pricing.abc/retry' });
    expect(fillPath('/api/streaming-keys/available-profiles/{email}/{service}', { email: 'a@b.mn', service: 'NFX' })).toEqual({ path: '/api/streaming-keys/available-profiles/a%40b.mn/NFX' });
    expect(fillPath('/api/streaming-keys/{id}', { id: 41 })).toEqual({ path: '/api/streaming-keys/41' });
    expect(fillPath('/api/x/{a}/{b}', { a: 'one' })).toEqual({ missing: 'b' });
    expect(fillPath('/api/x/{a}', { a: '' })).toEqual({ missing: 'a' });
  });

  it('adds the required query parameters from their examples and leaves optional ones to the server', () => {
    const endpoint = catalogueOf(document).endpoints.find((candidate) => candidate.id === 'getStreamingKeysEmailsWithSlots')!;
    expect(testPathOf(endpoint)).toEqual({ path: '/api/streaming-keys/emails-with-slots?service=NFX' });
    expect(testPathOf({ path: '/api/x', parameters: [{ name: 'q', in: 'query', required: true, type: null, example: undefined }] })).toEqual({ missing: 'q' });
  });

  it('sends a GET without a body and a write with its sample body; none for what cannot be tried', () => {
    const { endpoints } = catalogueOf(document);
    const request = (id: string) => testRequestOf(endpoints.find((endpoint) => endpoint.id === id)!);
    expect(request('getPrices')).toEqual({ method: 'GET', path: '/api/prices' });
    expect(request('postPricesByProduct')).toEqual({ method: 'POST', path: '/api/prices/Netflix%201%20month', body: { salePrice: '22000' } });
    expect(request('postCacheInvalidate')).toEqual({ method: 'POST', path: '/api/cache/invalidate' });
    expect(request('getLogout')).toBeNull();
    expect(request('getAdminRunsPricingByRunIdEvents')).toBeNull();
    expect(request('deleteScraperJobsById')).toBeNull();
  });

  it('asks first for every method but GET', () => {
    expect(isWrite('GET')).toBe(false);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) expect(isWrite(method)).toBe(true);
  });
});

describe("the request tester's path: this origin only", () => {
  const origin = 'http://localhost:5000';

  it.each([
    ['/api/prices', '/api/prices'],
    ['  /api/prices?format=array  ', '/api/prices?format=array'],
    ['/api/prices/Netflix 1 month', '/api/prices/Netflix%201%20month'],
    ['/api/prices#top', '/api/prices'],
    ['/api/../health', '/health'],
  ])('sends %j as %j', (input, path) => {
    expect(sameOriginPath(input, origin)).toEqual({ ok: true, path });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['http://evil.example/api', 'notAPath'],
    ['https://localhost:5000/api/prices', 'notAPath'],
    ['javascript:alert(1)', 'notAPath'],
    ['api/prices', 'notAPath'],
    ['//evil.example/api', 'otherHost'],
    ['/\\evil.example/api', 'otherHost'],
    ['/\t/evil.example/api', 'otherHost'],
    ['/\n/evil.example/api', 'otherHost'],
  ])('refuses %j (%s)', (input, problem) => {
    expect(sameOriginPath(input, origin)).toEqual({ ok: false, problem });
  });
});

describe('recent activity', () => {
  it.each([
    ['200', 'good'], [201, 'good'], ['204', 'good'], ['299', 'good'],
    ['400', 'warning'], ['404', 'warning'], [429, 'warning'], ['499', 'warning'],
    ['302', 'destructive'], ['304', 'destructive'], ['500', 'destructive'], ['503', 'destructive'], ['199', 'destructive'], ['0', 'destructive'], ['', 'destructive'], ['n/a', 'destructive'],
  ])('colours status %j as %s', (code, tone) => {
    expect(statusTone(code)).toBe(tone);
  });

  it('shows the latest entries, newest first', () => {
    const entry = (id: number, second: number): RequestLogEntry => ({
      id, method: 'GET', endpoint: `/api/x/${id}`, statusCode: '200', responseTime: '3ms', timestamp: new Date(Date.UTC(2026, 10, 23, 8, 0, second)).toISOString(),
    });
    const entries = [entry(1, 1), entry(3, 3), entry(2, 3), ...Array.from({ length: 10 }, (_, i) => entry(10 + i, 10 + i))];
    const latest = latestEntries(entries, 10);
    expect(latest.map((row) => row.id)).toEqual([19, 18, 17, 16, 15, 14, 13, 12, 11, 10]);
    expect(latestEntries(entries.slice(0, 3), 10).map((row) => row.id)).toEqual([3, 2, 1]);
  });
});

describe("a failed Test's detail", () => {
  it("says the status and the server's error, else the body cut short", () => {
    expect(failureDetail(new ApiError(404, JSON.stringify({ error: 'Product not found' })))).toBe('404: Product not found');
    expect(failureDetail(new ApiError(502, 'Bad Gateway'))).toBe('502: Bad Gateway');
    expect(failureDetail(new ApiError(500, 'x'.repeat(400)))).toBe(`500: ${'x'.repeat(300)}…`);
    expect(failureDetail(new TypeError('Failed to fetch'))).toBeNull();
  });
});
