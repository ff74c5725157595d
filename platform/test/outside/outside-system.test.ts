import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutsideCallError, OutsideSystem, retryAfterMs, type OutsideSystemOptions } from '../../src/outside';

/**
 * A small outside system on a real socket: each test says how it answers (status, headers, a
 * delay, a dropped connection, or never: 'silent'), and every request it got is kept with its
 * arrival time.
 */
type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'drop' | 'silent';
let script: Answer[] = [];
let fallback: Answer = { status: 200, body: '{"ok":true}' };
let received: { method: string; url: string; at: number }[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    received.push({ method: request.method!, url: request.url!, at: Date.now() });
    request.resume();
    const answer = script.shift() ?? fallback;
    if (answer === 'drop') return void request.socket.destroy();
    if (answer === 'silent') return; // the caller's deadline ends it
    setTimeout(() => {
      if (!response.destroyed) response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body ?? '{}');
    }, answer.delayMs ?? 0);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  fallback = { status: 200, body: '{"ok":true}' };
  received = [];
});

// A deadline no answer of this server races (a loaded machine may take a while over one); a test
// that wants a try to time out has the server say nothing ('silent').
const system = (options: Partial<OutsideSystemOptions> = {}) =>
  new OutsideSystem({ system: 'test-system', baseUrl, timeoutMs: 5_000, retry: { baseDelayMs: 20, maxDelayMs: 100 }, ...options });

describe('outside system: deadlines and retries', () => {
  it('tries a safe call again after server errors and a timeout, and returns the answer that came', async () => {
    script = [{ status: 503 }, 'silent', { status: 200, body: '{"third":true}' }];
    const answer = await system({ timeoutMs: 2_000 }).call({ operation: 'read', method: 'GET', path: '/items', idempotent: true });
    expect(answer).toMatchObject({ status: 200, text: '{"third":true}' });
    expect(received).toHaveLength(3);
  });

  it('sends an unsafe call once when the system failed or did not answer, and says which', async () => {
    script = [{ status: 500 }];
    expect((await system().call({ operation: 'create', method: 'POST', path: '/items', body: '{}', idempotent: false })).status).toBe(500);
    expect(received).toHaveLength(1);

    received = [];
    script = ['silent'];
    const timedOut = await system({ timeoutMs: 100 }).call({ operation: 'create', method: 'POST', path: '/items', body: '{}', idempotent: false }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(OutsideCallError);
    expect(timedOut).toMatchObject({ failure: 'timeout', message: 'test-system did not answer create within 100 ms' });
    expect(received).toHaveLength(1);

    received = [];
    script = ['drop'];
    await expect(system().call({ operation: 'create', method: 'POST', path: '/items', body: '{}', idempotent: false })).rejects.toMatchObject({ failure: 'unreachable' });
    expect(received).toHaveLength(1);
  });

  it('tries even an unsafe call again after a 429, waiting what Retry-After asks', async () => {
    script = [{ status: 429, headers: { 'retry-after': '1' } }, { status: 201 }];
    expect((await system().call({ operation: 'create', method: 'POST', path: '/items', body: '{}', idempotent: false })).status).toBe(201);
    expect(received).toHaveLength(2);
    // The second try waited the second asked for, not the back-off's 20–100 ms.
    expect(received[1].at - received[0].at).toBeGreaterThanOrEqual(950);
  });

  it('returns a 429 whose Retry-After is longer than it waits for, at once', async () => {
    script = [{ status: 429, headers: { 'retry-after': '120' } }];
    // Not waited for, not tried again: a wait would be the 120 s asked (or the 30 s cap, then a
    // second try), where the answer comes back with the Retry-After for the caller to honour.
    const answer = await system().call({ operation: 'read', method: 'GET', path: '/items', idempotent: true });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('120');
    expect(received).toHaveLength(1);
  });

  it("tries an unsafe call again when the connection was refused (the system never took it)", async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = new OutsideSystem({ system: 'gone', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 500, retry: { retries: 2, baseDelayMs: 10 } });
    const started = performance.now();
    await expect(gone.call({ operation: 'create', method: 'POST', path: '/x', body: '{}', idempotent: false })).rejects.toMatchObject({ failure: 'unreachable', details: { notTaken: true } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(10); // it waited between tries
  });

  it("stops at the caller's deadline: no try starts after it", async () => {
    fallback = { status: 503 };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the reply is due')), 150);
    const failed = await system({ retry: { retries: 10, baseDelayMs: 100, maxDelayMs: 100 } })
      .call({ operation: 'read', method: 'GET', path: '/items', idempotent: true, signal: controller.signal })
      .catch((error: unknown) => error);
    const count = received.length;
    expect(count).toBeLessThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(count);
    // It ended with the last answer it had, or as abandoned: never with a try after the deadline.
    expect(failed instanceof OutsideCallError ? failed.failure : (failed as { status: number }).status).toSatisfy((value: unknown) => value === 'abandoned' || value === 503);
  });

  it('reads Retry-After as seconds, as an HTTP date and as retry-after-ms', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 26 Nov 2026 10:00:05 GMT' }), now)).toBe(5_000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });
});

describe('outside system: circuit breaker and metrics', () => {
  it('opens after failures in a row, refuses at once while open, and closes after a good probe', async () => {
    const registry = new Registry();
    const shop = system({ retry: { retries: 0 }, breaker: { failuresToOpen: 3, openMs: 300 }, registry });
    fallback = { status: 502 };
    for (let n = 0; n < 3; n++) expect((await shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true })).status).toBe(502);
    expect(shop.breakerState).toBe('open');
    // Open: twenty callers fail at once, and the system sees none of them.
    const seen = received.length;
    const refused = await Promise.all(Array.from({ length: 20 }, () => shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true }).catch((error: unknown) => error)));
    expect(refused.every((error) => error instanceof OutsideCallError && error.failure === 'breaker_open')).toBe(true);
    expect(received).toHaveLength(seen);
    expect(await registry.getSingleMetricAsString('outside_breaker_state')).toContain('outside_breaker_state{system="test-system"} 2');

    // Half-open after openMs: of ten parallel callers exactly one goes through as the probe.
    await new Promise((resolve) => setTimeout(resolve, 350));
    fallback = { status: 200, delayMs: 50 };
    const probing = await Promise.all(Array.from({ length: 10 }, () => shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true }).catch((error: unknown) => error)));
    expect(probing.filter((outcome) => !(outcome instanceof OutsideCallError))).toHaveLength(1);
    expect(received).toHaveLength(seen + 1);
    expect(shop.breakerState).toBe('closed');
    expect((await shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true })).status).toBe(200);

    const text = await registry.getSingleMetricAsString('outside_call_duration_seconds');
    expect(text).toContain('outside_call_duration_seconds_count{system="test-system",operation="read",outcome="server_error"} 3');
    expect(text).toContain('outside_call_duration_seconds_count{system="test-system",operation="read",outcome="breaker_open"} 29');
    expect(text).toContain('outside_call_duration_seconds_count{system="test-system",operation="read",outcome="ok"} 2');
    expect(await registry.getSingleMetricAsString('outside_breaker_state')).toContain('outside_breaker_state{system="test-system"} 0');
  });

  it('reopens when the probe fails, and counts a refusal (4xx) as the system being up', async () => {
    const shop = system({ retry: { retries: 0 }, breaker: { failuresToOpen: 2, openMs: 200 } });
    script = [{ status: 500 }, { status: 404 }, { status: 500 }, { status: 500 }];
    for (let n = 0; n < 3; n++) await shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true });
    expect(shop.breakerState).toBe('closed'); // the 404 between the two 500s broke the run
    await shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true });
    expect(shop.breakerState).toBe('open');
    await new Promise((resolve) => setTimeout(resolve, 250));
    fallback = { status: 503 };
    expect((await shop.call({ operation: 'read', method: 'GET', path: '/items', idempotent: true })).status).toBe(503);
    expect(shop.breakerState).toBe('open');
  });
});
