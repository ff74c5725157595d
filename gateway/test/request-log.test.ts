import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, LOG_BODY_MAX_BYTES } from '@bo/platform';
import { eventually } from '@bo/platform/testing/eventually';
import { RequestLogWriter, requestLogRetention } from '../src/store/request-log';
import { GATEWAY_SCHEMA } from '../src/store/schema';
import { signInLocalAdmin, startHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('request log and analytics', () => {
  it('records /api requests in batches and reports them in the spec shapes', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'analyst');
    for (let i = 0; i < 3; i++) await h.app.inject({ method: 'GET', url: '/api/prices?x=1' });
    await h.app.inject({ method: 'GET', url: '/api/nothing-here' });
    await h.app.inject({ method: 'GET', url: '/health' }); // not under /api: not logged
    // Flushed (every second, in the order recorded): the last one logged is there, so are the rest.
    await eventually(async () => {
      const [row] = await h.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint = '/api/nothing-here'`);
      return Number(row.n) === 1;
    }, 10_000, 'the requests flushed to the log');

    const log = (await h.app.inject({ method: 'GET', url: '/api/monitoring/requests', headers: { cookie } })).json().data;
    expect(log[0]).toMatchObject({ id: expect.any(Number), method: 'GET', endpoint: '/api/nothing-here', statusCode: '404', responseTime: expect.stringMatching(/^\d+ms$/), timestamp: expect.any(String) });
    expect(log.some((r: { endpoint: string }) => r.endpoint === '/health')).toBe(false);

    const overview = (await h.app.inject({ method: 'GET', url: '/api/analytics/overview', headers: { cookie } })).json().data;
    // login + csrf + 3 prices + 404 + the monitoring read itself (logged before this one)
    expect(overview.totalRequests).toBeGreaterThanOrEqual(6);
    expect(overview).toMatchObject({ avgResponseTime: expect.any(Number), uniqueEndpoints: expect.any(Number), successRate: expect.any(Number) });
    expect(overview.successRate).toBeLessThan(100);

    const endpoints = (await h.app.inject({ method: 'GET', url: '/api/analytics/endpoints', headers: { cookie } })).json().data;
    expect(endpoints[0]).toEqual({ endpoint: '/api/prices', method: 'GET', count: 3, avgResponseTime: expect.any(Number) });

    const timeline = (await h.app.inject({ method: 'GET', url: '/api/analytics/timeline', headers: { cookie } })).json().data;
    expect(timeline).toHaveLength(1);
    expect(timeline[0]).toEqual({ hour: expect.any(String), requests: expect.any(Number), avgResponseTime: expect.any(Number) });
  });

  it('reports the whole log as the total, not the length of the latest page', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'counter');
    // More requests than the page of latest entries holds (100).
    for (let n = 0; n < 150; n++) await h.app.inject({ method: 'GET', url: `/api/seeded/${n}` });
    const [{ count }] = await eventually(async () => {
      const rows = await h.prisma.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint LIKE '/api/seeded/%'`);
      return Number(rows[0].count) === 150 ? rows : null;
    }, 5_000, 'the seeded requests logged');
    expect(Number(count)).toBe(150);
    // The log may still grow meanwhile (a flush of what is buffered): the total is the whole log as
    // it was while the read was answered, between the counts before and after it.
    const logSize = async () => Number((await h.prisma.$queryRawUnsafe<{ all: bigint }[]>(`SELECT count(*) AS all FROM ${GATEWAY_SCHEMA}.api_requests`))[0].all);
    const before = await logSize();
    const reply = (await h.app.inject({ method: 'GET', url: '/api/monitoring/requests', headers: { cookie } })).json();
    const after = await logSize();
    expect(reply.data).toHaveLength(100);
    expect(before).toBeGreaterThan(100);
    expect(reply.total).toBeGreaterThanOrEqual(before);
    expect(reply.total).toBeLessThanOrEqual(after);
  });

  it('counts by the hour what two gateways log at once, every request once: the figures agree with the log', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'hourly');
    const other = await h.buildAnother();
    const countOf = async (endpoint: string) => Number((await h.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint = $1`, endpoint))[0].n);
    const pricesBefore = await countOf('/api/prices');
    await Promise.all(
      Array.from({ length: 400 }, (_, n) => (n % 2 ? h.app : other).inject({ method: 'GET', url: n % 10 === 0 ? '/api/hourly-missing' : `/api/prices?hourly=${n % 7}` })),
    );
    await other.close(); // flushes what it holds
    // The first flushes every second: every one of the 400 is logged.
    await eventually(async () => (await countOf('/api/hourly-missing')) === 40 && (await countOf('/api/prices')) === pricesBefore + 360, 10_000, 'the 400 requests logged');
    const [log] = await h.prisma.$queryRawUnsafe<{ total: bigint; ok: bigint; time: bigint }[]>(
      `SELECT count(*) AS total, count(*) FILTER (WHERE status_code < 400) AS ok, sum(response_time) AS time FROM ${GATEWAY_SCHEMA}.api_requests`,
    );
    const [byHour] = await h.prisma.$queryRawUnsafe<{ total: bigint; ok: bigint; time: bigint }[]>(
      `SELECT sum(requests)::bigint AS total, sum(ok)::bigint AS ok, sum(response_time_sum)::bigint AS time FROM ${GATEWAY_SCHEMA}.api_request_hours`,
    );
    expect(byHour).toEqual(log);
    const overview = (await h.app.inject({ method: 'GET', url: '/api/analytics/overview', headers: { cookie } })).json().data;
    expect(overview.totalRequests).toBeGreaterThanOrEqual(Number(log.total));
    const endpoints = (await h.app.inject({ method: 'GET', url: '/api/analytics/endpoints', headers: { cookie } })).json().data;
    expect(endpoints).toContainEqual({ endpoint: '/api/hourly-missing', method: 'GET', count: 40, avgResponseTime: expect.any(Number) });
  });

  it('logs a burst of alike requests each as its own row, and leaves what arrives during a flush to the next one', async () => {
    const writer = new RequestLogWriter(h.prisma, createLogger('gateway', 'silent'));
    const loggedCount = async (endpoint: string) => {
      const [row] = await h.prisma.$queryRawUnsafe<{ rows: bigint; hours: bigint | null }[]>(
        `SELECT (SELECT count(*) FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint = $1) AS rows,
                (SELECT sum(requests) FROM ${GATEWAY_SCHEMA}.api_request_hours WHERE endpoint = $1)::bigint AS hours`,
        endpoint,
      );
      return { rows: Number(row.rows), hours: Number(row.hours ?? 0) };
    };
    // A busy kept read: thousands of alike answers in one millisecond, then one slower one.
    const at = Date.now();
    for (let n = 0; n < 5_000; n++) writer.record({ endpoint: '/api/burst', method: 'GET', statusCode: 200, responseTime: 0, at });
    writer.record({ endpoint: '/api/burst', method: 'GET', statusCode: 200, responseTime: 7, at });
    await writer.flush();
    expect(await loggedCount('/api/burst')).toEqual({ rows: 5_001, hours: 5_001 });
    const [slow] = await h.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint = '/api/burst' AND response_time = 7`);
    expect(Number(slow.n)).toBe(1);

    // Requests that come while a flush writes wait for the next flush: steady traffic is not one insert after another.
    for (let n = 0; n < 10; n++) writer.record({ endpoint: '/api/during-flush', method: 'GET', statusCode: 200, responseTime: 1, at: at + n });
    const first = writer.flush();
    await new Promise((resolve) => setImmediate(resolve)); // the flush has taken the buffer and is writing
    for (let n = 10; n < 25; n++) writer.record({ endpoint: '/api/during-flush', method: 'GET', statusCode: 200, responseTime: 1, at: at + n });
    await first;
    expect(await loggedCount('/api/during-flush')).toEqual({ rows: 10, hours: 10 });
    await writer.close();
    expect(await loggedCount('/api/during-flush')).toEqual({ rows: 25, hours: 25 });
  });

  it('aggregates config status from every service, and marks an unreachable one', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'configurer');
    const up = (await h.app.inject({ method: 'GET', url: '/api/admin/config-status', headers: { cookie } })).json().data;
    // Each item names the process it is of: the gateway's own, and each service's as the gateway asked it.
    expect(up).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Cache and rate limits (Redis)', configured: true, service: 'gateway' }),
      expect.objectContaining({ name: 'Google Sheets price list', configured: true, simulated: true, service: 'pricing' }),
    ]));
    expect(up.every((item: { service?: string }) => typeof item.service === 'string')).toBe(true);
    h.upstream.setConfigStatusUp(false);
    const down = (await h.app.inject({ method: 'GET', url: '/api/admin/config-status', headers: { cookie } })).json().data;
    expect(down).toContainEqual(expect.objectContaining({ name: 'pricing service', configured: false, error: expect.stringContaining('unreachable'), service: 'pricing' }));
  });

  it('keeps 30 days of requests (the platform retention job), and at most 8 KiB of a path', async () => {
    await h.prisma.$executeRawUnsafe(
      `INSERT INTO ${GATEWAY_SCHEMA}.api_requests (endpoint, method, status_code, response_time, timestamp)
       SELECT '/api/aged/' || n, 'GET', 200, 3, now() - make_interval(days => n) FROM unnest(ARRAY[28, 29, 31, 32]) AS n`,
    );
    await h.prisma.$executeRawUnsafe(
      `INSERT INTO ${GATEWAY_SCHEMA}.api_request_hours (hour, endpoint, method, requests, ok, response_time_sum)
       SELECT date_trunc('hour', now() - make_interval(days => n)), '/api/aged/' || n, 'GET', 1, 1, 3 FROM unnest(ARRAY[28, 29, 31, 32]) AS n`,
    );
    expect(await requestLogRetention(h.prisma).sweep()).toEqual({ api_requests: 2, api_request_hours: 2 });
    const aged = await h.prisma.$queryRawUnsafe<{ endpoint: string }[]>(`SELECT endpoint FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint LIKE '/api/aged/%' ORDER BY endpoint`);
    expect(aged.map((row) => row.endpoint)).toEqual(['/api/aged/28', '/api/aged/29']);

    const long = `/api/${'p'.repeat(12_000)}`;
    expect((await h.app.inject({ method: 'GET', url: long })).statusCode).toBe(404);
    const logged = await eventually(async () => {
      const rows = await h.prisma.$queryRawUnsafe<{ endpoint: string }[]>(`SELECT endpoint FROM ${GATEWAY_SCHEMA}.api_requests WHERE endpoint LIKE '/api/ppp%'`);
      return rows[0];
    });
    expect(Buffer.byteLength(logged.endpoint)).toBeLessThanOrEqual(LOG_BODY_MAX_BYTES);
    expect(logged.endpoint).toMatch(/^\/api\/p+ …\[truncated: 12005 bytes\]$/);
  });
});
