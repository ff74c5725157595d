import net from 'node:net';
import { request as httpRequest } from 'node:http';
import { SERVICE_BODY_LIMIT_BYTES, WEBHOOK_BODY_LIMIT_BYTES, type ServiceApp } from '@bo/platform';
import { testVerifier } from '@bo/platform/testing/identity';
import { eventually } from '@bo/platform/testing/eventually';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchRoute } from '../src/routing-table';
import { startHarness, signInLocalAdmin, type Harness } from './support/harness';

/** What a service of this suite makes of the header the gateway forwarded. */
const verifier = testVerifier();

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const lastSeen = () => h.upstream.seen[h.upstream.seen.length - 1];

describe('routing to services', () => {
  it('forwards public price reads and keeps the upstream headers', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/prices' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: [{ product: 'netflix', price: '10000' }], count: 1 });
    expect(response.headers['x-upstream']).toBe('pricing');
  });

  it('strips a client-sent x-internal-identity and sends a signed one of its own', async () => {
    const forged = 'eyJraW5kIjoiYWRtaW4ifQ.forged';
    await h.app.inject({ method: 'GET', url: '/api/prices/forgery-check', headers: { 'x-internal-identity': forged, 'x-correlation-id': 'corr-123', cookie: 'other=1' } });
    const headers = lastSeen();
    expect(headers['x-internal-identity']).not.toBe(forged);
    const identity = verifier.verify(headers['x-internal-identity'] as string);
    expect(identity).toMatchObject({ kind: 'anonymous', isAdmin: false });
    expect(headers['x-correlation-id']).toBe('corr-123');
    expect(headers.cookie).toBeUndefined();
  });

  it('passes the bank callback and the chat webhook through without a session or CSRF token, with the chat flow\'s secret header', async () => {
    const webhook = await h.app.inject({ method: 'POST', url: '/api/qpay/webhook', headers: { 'x-webhook-secret': 'flow-secret', 'content-type': 'application/json' }, payload: { user_id: '1' } });
    expect(webhook.json()).toEqual({ forwarded: true, method: 'POST', url: '/api/qpay/webhook' });
    expect(lastSeen()['x-webhook-secret']).toBe('flow-secret');
    expect(verifier.verify(lastSeen()['x-internal-identity'] as string)).toMatchObject({ kind: 'anonymous' });
    const callback = await h.app.inject({ method: 'GET', url: '/api/qpay/callback/INV-ABCDEFGHIJ?token=t&qpay_payment_id=1' });
    expect(callback.json()).toEqual({ forwarded: true, method: 'GET', url: '/api/qpay/callback/INV-ABCDEFGHIJ?token=t&qpay_payment_id=1' });
  });

  it('signs the admin identity from the session for admin routes', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'proxy-admin');
    const response = await h.app.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie, 'x-internal-identity': 'forged' } });
    expect(response.statusCode).toBe(200);
    const identity = verifier.verify(lastSeen()['x-internal-identity'] as string);
    expect(identity).toMatchObject({ kind: 'admin', isAdmin: true });
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: expect.stringContaining('/api/no-such-thing') });
  });

  it('matches no service for dot segments that would climb out of a prefix', () => {
    expect(matchRoute('POST', '/api/prices/../sheets/update')).toBeNull();
    expect(matchRoute('GET', '/api/prices/./x')).toBeNull();
    expect(matchRoute('GET', '/api/prices/netflix')?.contract.access).toBe('public');
    // A method no contract declares for the path is not forwarded at all.
    expect(matchRoute('DELETE', '/api/prices/netflix')).toBeNull();
  });

  it('answers 503 with Retry-After when the service is down, so callers come back', async () => {
    const app = await h.buildAnother({ PRICING_URL: 'http://127.0.0.1:9' });
    const response = await app.inject({ method: 'GET', url: '/api/prices' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: 'Service pricing is unavailable, try again shortly' });
  });

  it('answers 503 with Retry-After when the service resets the connection', async () => {
    // A process going away: it takes the connection, then drops it without an answer.
    const resetting = net.createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    try {
      const app = await h.buildAnother({ PRICING_URL: `http://127.0.0.1:${(resetting.address() as net.AddressInfo).port}` });
      const response = await app.inject({ method: 'GET', url: '/api/prices' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
    } finally {
      await new Promise((resolve) => resetting.close(resolve));
    }
  });

  it('keeps /ready and /metrics off the public port, on the operations app only', async () => {
    for (const url of ['/ready', '/metrics']) expect((await h.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    const operations = (h.app as ServiceApp).operations;
    expect((await operations.inject({ method: 'GET', url: '/metrics' })).body).toContain('http_request_duration_seconds');
    expect((await operations.inject({ method: 'GET', url: '/ready' })).json()).toMatchObject({ ready: true });
  });

  it('names the API at /api without the runtime, tells the runtime to admins only, and /health in the spec shape', async () => {
    const index = await h.app.inject({ method: 'GET', url: '/api' });
    expect(index.json()).toEqual({ name: 'Back-office API', openapi: '/api/openapi.json' });
    expect(index.body).not.toContain(process.version);
    expect((await h.app.inject({ method: 'GET', url: '/api/admin/system' })).statusCode).toBe(401);
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'runtime-reader');
    expect((await h.app.inject({ method: 'GET', url: '/api/admin/system', headers: { cookie } })).json()).toEqual({ runtime: { node: process.version } });
    const openapi = await h.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(openapi.json()).toMatchObject({ openapi: '3.1.0', paths: { '/api/prices': { get: expect.any(Object) } } });
    const health = (await h.app.inject({ method: 'GET', url: '/health' })).json();
    expect(health).toMatchObject({ status: 'healthy', timestamp: expect.any(String), uptime: expect.any(Number), memory: { rss: expect.any(Number), heapTotal: expect.any(Number) } });
  });

});

describe('public webhook bodies', () => {
  const webhookOf = (bytes: number) => JSON.stringify({ invoice_id: 'x'.repeat(bytes - 17) });

  it('forwards a webhook body of exactly 64 KiB whole, and refuses one byte more with 413 before forwarding', async () => {
    expect(Buffer.byteLength(webhookOf(WEBHOOK_BODY_LIMIT_BYTES))).toBe(WEBHOOK_BODY_LIMIT_BYTES);
    const fits = await h.app.inject({ method: 'POST', url: '/api/qpay/callback', headers: { 'content-type': 'application/json' }, payload: webhookOf(WEBHOOK_BODY_LIMIT_BYTES) });
    expect(fits.json()).toEqual({ bytes: WEBHOOK_BODY_LIMIT_BYTES });
    const before = h.upstream.seen.length;
    const tooBig = await h.app.inject({ method: 'POST', url: '/api/qpay/callback', headers: { 'content-type': 'application/json' }, payload: webhookOf(WEBHOOK_BODY_LIMIT_BYTES + 1) });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toMatch(/too large/i);
    expect(h.upstream.seen.length).toBe(before);
  });

  it('counts a chunked webhook body (no Content-Length) and refuses it with 413 once it passes 64 KiB, forwarding nothing', async () => {
    const app = await h.buildAnother();
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const before = h.upstream.seen.length;
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: address.hostname, port: address.port, method: 'POST', path: '/api/qpay/webhook', headers: { 'content-type': 'application/json' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      // 16 KiB at a time, and never an end: the gateway must answer on the count alone.
      const chunk = 'x'.repeat(16 * 1024);
      request.write('{"user_id":"');
      for (let i = 0; i < 5; i++) request.write(chunk);
    });
    expect(status).toBe(413);
    expect(h.upstream.seen.length).toBe(before);
    await app.close();
  });

  it('streams other bodies to the service up to its 1 MiB: 200 KiB reaches it, one byte past 1 MiB is 413 (declared or chunked), and the connection is closed after', async () => {
    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'big-body-admin');
    const headers = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
    const response = await h.app.inject({ method: 'POST', url: '/api/sheets/update', headers, payload: JSON.stringify({ note: 'x'.repeat(200_000) }) });
    expect(response.statusCode).toBe(200);
    expect(response.json().received.note).toHaveLength(200_000);
    const before = h.upstream.seen.length;
    const declared = await h.app.inject({ method: 'POST', url: '/api/sheets/update', headers, payload: 'x'.repeat(SERVICE_BODY_LIMIT_BYTES + 1) });
    expect(declared.statusCode).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect(h.upstream.seen.length).toBe(before);

    const app = await h.buildAnother();
    const address = new URL(await app.listen({ port: 0, host: '127.0.0.1' }));
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: address.hostname, port: address.port, method: 'POST', path: '/api/sheets/update', headers }, (reply) => {
        reply.resume();
        resolve(reply.statusCode ?? 0);
      });
      request.on('error', reject);
      // 64 KiB at a time, never an end: refused on the count alone.
      for (let i = 0; i < 17; i++) request.write('x'.repeat(64 * 1024));
    });
    expect(status).toBe(413);
    await app.close();
  });
});

describe('public read cache', () => {
  it('serves repeated reads from memory and shows a write on the very next read', async () => {
    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'cache-admin');
    await h.app.inject({ method: 'GET', url: '/api/prices' });
    h.upstream.prices.set('disney', '5000'); // changed behind the gateway's back: the cached copy still answers
    const cached = await h.app.inject({ method: 'GET', url: '/api/prices' });
    expect(cached.json().count).toBe(1);
    expect(cached.headers['x-upstream']).toBe('pricing');

    const write = await h.app.inject({ method: 'POST', url: '/api/prices/netflix', headers: { cookie, 'x-csrf-token': csrfToken }, payload: { price: '12000' } });
    expect(write.statusCode).toBe(200);
    const fresh = await h.app.inject({ method: 'GET', url: '/api/prices' });
    expect(fresh.json().data).toEqual(expect.arrayContaining([{ product: 'netflix', price: '12000' }, { product: 'disney', price: '5000' }]));
  });
});

describe('early cache answers', () => {
  it('answers a kept public read off the socket with the same headers as the full path, logs and counts it, and still runs sessions for signed-in callers', async () => {
    h.upstream.prices.set('hulu', '7000');
    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'early-admin');
    const app = await h.buildAnother();
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await app.inject({ method: 'POST', url: '/api/prices/hulu', headers: { cookie, 'x-csrf-token': csrfToken }, payload: { price: '7000' } }); // empties the cache
      const full = await fetch(`${address}/api/prices?early=1`);
      const fullBody = await full.text();
      h.upstream.seen.length = 0;
      const early = await Promise.all(Array.from({ length: 20 }, () => fetch(`${address}/api/prices?early=1`, { headers: { 'x-correlation-id': 'early-read-1' } })));
      expect(h.upstream.seen).toHaveLength(0); // answered from memory
      const comparable = (response: Response) => {
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        const { 'x-correlation-id': _id, date: _date, 'server-timing': _timing, ...rest } = headers;
        return rest;
      };
      // The full path says how long the gateway took (after the service's own entry, when it sends one); a kept answer took no time of either.
      expect(full.headers.get('server-timing')).toMatch(/(^|, )gateway;dur=[\d.]+$/);
      for (const response of early) {
        expect(response.headers.get('server-timing')).toBeNull();
        expect(response.status).toBe(200);
        expect(comparable(response)).toEqual(comparable(full));
        expect(response.headers.get('x-correlation-id')).toBe('early-read-1'); // the caller's id, as on the full path
        expect(await response.text()).toBe(fullBody);
      }
      // In the request log and the metrics like any other read.
      await eventually(async () => (await h.prisma.apiRequest.count({ where: { endpoint: '/api/prices' } })) >= 21, 5_000, 'the early reads in the request log');
      const metrics = await (await (app as ServiceApp).operations.inject({ method: 'GET', url: '/metrics' })).body;
      const count = metrics.split('\n').find((line) => line.startsWith('http_request_duration_seconds_count') && line.includes('method="GET"') && line.includes('route="/api/*"') && line.includes('status="200"'));
      expect(Number(count?.split(' ').at(-1))).toBeGreaterThanOrEqual(21);

      // A signed-in caller's read takes the full path: the session is looked up (and kept alive).
      const signedInRead = await fetch(`${address}/api/prices?early=1`, { headers: { cookie } });
      expect(signedInRead.status).toBe(200);
      await signedInRead.text();
      await app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'x-csrf-token': csrfToken } });
      const afterLogout = await fetch(`${address}/api/auth/user`, { headers: { cookie } });
      expect(afterLogout.status).toBe(401);
      // A write empties the kept answers: the next read is the new price, through the service.
      const admin = await signInLocalAdmin(app, h.prisma, 'early-admin-2');
      await app.inject({ method: 'POST', url: '/api/prices/hulu', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken }, payload: { price: '7500' } });
      const fresh = await (await fetch(`${address}/api/prices?early=1`)).json();
      expect(fresh.data).toEqual(expect.arrayContaining([{ product: 'hulu', price: '7500' }]));
    } finally {
      await app.close();
    }
  });
});

describe('server-sent events', () => {
  it('streams server-sent events without waiting for the end', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'sse-admin');
    const app = await h.buildAnother();
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${address}/api/cache/status`, { headers: { cookie, accept: 'text/event-stream' } });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      // The upstream has sent only its first event and holds the stream open: it can reach the
      // browser only if the gateway passes the stream on as it comes.
      let first = '';
      while (!first.endsWith('\n\n')) {
        const chunk = await reader.read();
        if (chunk.done) break;
        first += decoder.decode(chunk.value);
      }
      expect(first).toBe('data: first\n\n');
      h.upstream.endStreams();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += decoder.decode(chunk.value);
      expect(rest).toBe('data: second\n\n');
    } finally {
      await app.close();
    }
  });
});
