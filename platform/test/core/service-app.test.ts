import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, conflict, createLogger, createServiceApp, currentCorrelationId, serveRoute } from '@bo/platform';
import { asService, signedBy, signerOf, testVerifier } from '@bo/platform/testing/identity';
import { defineRoute, type RouteAccess } from '@bo/proto';
import { ReadinessWatch } from '../../src/http/readiness';

const adminClaims = { kind: 'admin' as const, userId: '1', email: 'a@example.com', isAdmin: true, keyId: null };
const admin = signedBy('gateway', adminClaims);
const customer = signedBy('gateway', { kind: 'customer', userId: null, email: 'c@example.com', isAdmin: false, keyId: 'k1' });
const gateway = asService('gateway');

// Contracts of a made-up service; the owner only has to be a registry name.
const route = (method: 'GET' | 'POST', path: string, access: RouteAccess) =>
  defineRoute({ owner: 'pricing', method, path, access, reply: z.unknown(), summary: path, category: 'Test', example: { reply: null } });
const things = defineRoute({
  owner: 'pricing', method: 'POST', path: '/api/things', access: 'admin', summary: 'things', category: 'Test',
  body: z.object({ name: z.string().min(1), count: z.number().int() }),
  reply: z.object({ name: z.string() }),
  example: { body: { name: 'x', count: 1 }, reply: { name: 'x' } },
});
const forNotifications = defineRoute({ owner: 'pricing', method: 'GET', path: '/internal/for-notifications', access: 'internal', callers: ['notifications'], summary: 'callers', category: 'Test', reply: z.unknown(), example: { reply: null } });
const wrongReply = defineRoute({ owner: 'pricing', method: 'GET', path: '/api/wrong-reply', access: 'public', summary: 'drift', category: 'Test', reply: z.object({ count: z.number() }), example: { reply: { count: 3 } } });

function buildApp(readinessOk = true, options: { checkReplies?: boolean; separateOperations?: boolean } = {}) {
  const app = createServiceApp({
    service: 'demo',
    logger: createLogger('demo', 'silent'),
    verifier: testVerifier(),
    readiness: [{ name: 'database', check: async () => { if (!readinessOk) throw new Error('connection refused'); } }],
    ...options,
  });
  serveRoute(app, things, async ({ body }) => ({ name: body.name }));
  serveRoute(app, route('GET', '/api/public', 'public'), async () => ({ correlationId: currentCorrelationId() }));
  serveRoute(app, route('GET', '/api/mine', 'customer'), async ({ identity }) => ({ email: identity?.email }));
  serveRoute(app, route('GET', '/internal/status', 'internal'), async () => ({ ok: true }));
  serveRoute(app, forNotifications, async () => ({ ok: true }));
  serveRoute(app, route('GET', '/api/conflict', 'admin'), async () => { throw conflict('Already paid'); });
  serveRoute(app, route('GET', '/api/crash', 'admin'), async () => { throw new Error('secret internal detail at /srv/app.ts:12'); });
  serveRoute(app, route('GET', '/api/teapot', 'admin'), async () => { throw new AppError(418, 'teapot', 'I am a teapot'); });
  serveRoute(app, wrongReply, async () => ({ count: 'three' }) as never);
  serveRoute(app, route('GET', '/api/database-away', 'admin'), async () => {
    // A real "database away" failure, as a store's query gets it: nothing listens on the port.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    pool.on('error', () => {});
    try {
      return await pool.query('SELECT 1');
    } finally {
      await pool.end();
    }
  });
  return app;
}

describe('createServiceApp', () => {
  const app = buildApp();
  afterAll(() => app.close());

  it('answers /health with status, timestamp, uptime and memory', async () => {
    const body = (await app.inject({ method: 'GET', url: '/health' })).json();
    expect(body).toMatchObject({ status: 'healthy', service: 'demo' });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    expect(body.uptime).toBeGreaterThanOrEqual(0);
    expect(body.memory.rss).toBeGreaterThan(0);
    expect(body.memory.heapTotal).toBeGreaterThan(0);
  });

  it('reports readiness per dependency, 503 when one fails', async () => {
    expect((await app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({ ready: true, checks: [{ name: 'database', ok: true }] });
    const broken = buildApp(false);
    const response = await broken.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json().checks[0]).toEqual({ name: 'database', ok: false, error: 'connection refused' });
    await broken.close();
  });

  it('exposes Prometheus metrics with request durations', async () => {
    await app.inject({ method: 'GET', url: '/api/public' });
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('route="/api/public"');
  });

  it('refuses non-public routes without a signed identity, and non-admins on admin routes', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x', count: 1 } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x', count: 1 }, headers: customer })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/mine', headers: customer })).json()).toEqual({ email: 'c@example.com' });
    expect((await app.inject({ method: 'GET', url: '/api/mine' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/public' })).statusCode).toBe(200);
  });

  it('lets only a service identity call an internal route', async () => {
    expect((await app.inject({ method: 'GET', url: '/internal/status' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/internal/status', headers: admin })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/internal/status', headers: gateway })).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'GET', url: '/internal/status', headers: asService('notifications') })).json()).toEqual({ ok: true });
  });

  it('lets only the callers an internal route names call it, each with its own key', async () => {
    expect((await app.inject({ method: 'GET', url: '/internal/for-notifications', headers: asService('notifications') })).json()).toEqual({ ok: true });
    const other = await app.inject({ method: 'GET', url: '/internal/for-notifications', headers: asService('ai-chat') });
    expect({ status: other.statusCode, error: other.json().error }).toEqual({ status: 403, error: 'Internal route for notifications only, not ai-chat' });
  });

  it('answers a refused identity header with 403 and the reason, never as the identity it claims', async () => {
    const refused = async (headers: Record<string, string>) => {
      const response = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x', count: 1 }, headers });
      return { status: response.statusCode, error: response.json().error as string };
    };
    expect(await refused(signedBy('ai-chat', adminClaims))).toEqual({ status: 403, error: "Identity refused: ai-chat may not state a person's identity (admin): only the gateway does" });
    expect(await refused(asService('ai-chat'))).toEqual({ status: 403, error: 'Admin access required' });
    expect(await refused({ 'x-internal-identity': signerOf('gateway').signAt(adminClaims, Date.now() - 120_000) })).toEqual({ status: 403, error: 'Identity refused: the identity header is stale' });
    expect((await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x', count: 1 }, headers: admin })).statusCode).toBe(200);
  });

  it('refuses, at registration, a route that declares no access', () => {
    const bare = createServiceApp({ service: 'demo', logger: createLogger('demo', 'silent'), verifier: testVerifier() });
    expect(() => bare.get('/api/forgotten', async () => ({}))).toThrow(/declares no access/);
    return bare.close();
  });

  it('validates the body by its contract before the handler: a 400 that names the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'x', count: 'many' }, headers: admin });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('count');
    expect(response.json().details).toEqual([{ field: 'count', message: expect.any(String) }]);
    for (const payload of ['5', '"five"', '[]', 'true', 'null']) {
      const wrongType = await app.inject({ method: 'POST', url: '/api/things', payload, headers: { ...admin, 'content-type': 'application/json' } });
      expect(wrongType.statusCode, payload).toBe(400);
      expect(wrongType.json().error, payload).toMatch(/^Invalid body: body: .*expected object/);
    }
  });

  it('checks replies against the contract when asked (tests), and not otherwise', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/wrong-reply' })).statusCode).toBe(200);
    const checking = buildApp(true, { checkReplies: true });
    const response = await checking.inject({ method: 'GET', url: '/api/wrong-reply' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    await checking.close();
  });

  it('serves /ready and /metrics on a separate operations app when asked', async () => {
    const split = buildApp(true, { separateOperations: true });
    expect((await split.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    expect((await split.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(404);
    expect((await split.operations.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    await split.close();
  });

  it('uses one error shape: 404 for unknown routes, 409 for conflicts, the status of an AppError', async () => {
    const missing = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Route GET /api/nothing-here not found' });
    expect((await app.inject({ method: 'GET', url: '/api/conflict', headers: admin })).json()).toEqual({ error: 'Already paid' });
    expect((await app.inject({ method: 'GET', url: '/api/teapot', headers: admin })).statusCode).toBe(418);
  });

  it('never leaks a stack or an internal message in a 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/crash', headers: admin });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    expect(response.body).not.toContain('/srv/app.ts');
  });

  it('answers a dependency that is down with 503 and Retry-After, never 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/database-away', headers: admin });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: 'A service this request needs is unavailable, try again shortly' });
  });

  type LogLine = { level: number; msg: string; dependency?: string };
  /**
   * An app whose readiness checks a database that is up while `databaseUp()` says so, its log lines
   * kept, and a route that fails as a store's query does while PostgreSQL is away (Prisma's P1001).
   */
  const appWithDatabase = (lines: LogLine[], databaseUp: () => boolean) => {
    const app = createServiceApp({
      service: 'demo',
      logger: createLogger('demo', 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) }),
      verifier: testVerifier(),
      readiness: [{ name: 'database', check: async () => { if (!databaseUp()) throw new Error('connect ECONNREFUSED 127.0.0.1:5432'); } }],
    });
    serveRoute(app, route('GET', '/api/reads', 'admin'), async () => { throw Object.assign(new Error("Can't reach database server"), { code: 'P1001' }); });
    return app;
  };

  it('counts a check that never answers (a hung database) as failing once its deadline passes, and logs it once', async () => {
    const lines: LogLine[] = [];
    const logger = createLogger('demo', 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) });
    let answers = false;
    const hung = new ReadinessWatch([{ name: 'database', check: () => (answers ? Promise.resolve() : new Promise<void>(() => undefined)) }], logger, 50);
    for (let i = 0; i < 3; i++) expect(await hung.check()).toEqual([{ name: 'database', ok: false, error: 'no answer within 50 ms' }]);
    answers = true;
    expect(await hung.check()).toEqual([{ name: 'database', ok: true }]);
    hung.close();
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [40, 'not ready: the database is unreachable: no answer within 50 ms; /ready answers 503 (and requests that need it 503 with Retry-After) until it is back: check PostgreSQL and DATABASE_URL'],
      [30, 'ready again'],
    ]);
  });

  it('logs readiness when it changes, not per probe: one warn naming the dependency and what to do, one info when ready again, no error', async () => {
    const lines: LogLine[] = [];
    let databaseUp = true;
    const watched = appWithDatabase(lines, () => databaseUp);
    const probe = async () => (await watched.inject({ method: 'GET', url: '/ready' })).statusCode;
    expect(await probe()).toBe(200);
    databaseUp = false;
    // A probe every second for half a minute, as Kubernetes does, and requests refused meanwhile.
    for (let i = 0; i < 30; i++) {
      expect(await probe()).toBe(503);
      const refused = await watched.inject({ method: 'GET', url: '/api/reads', headers: admin });
      expect({ status: refused.statusCode, retryAfter: refused.headers['retry-after'] }).toEqual({ status: 503, retryAfter: '5' });
    }
    databaseUp = true;
    for (let i = 0; i < 5; i++) expect(await probe()).toBe(200);
    await watched.close();

    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.filter((line) => line.level === 40)).toEqual([
      expect.objectContaining({
        dependency: 'database',
        msg: 'not ready: the database is unreachable: connect ECONNREFUSED 127.0.0.1:5432; /ready answers 503 (and requests that need it 503 with Retry-After) until it is back: check PostgreSQL and DATABASE_URL',
      }),
    ]);
    expect(lines.filter((line) => line.level === 30).map((line) => line.msg)).toEqual(['ready again']);
  });

  it('logs a 5xx its code chose (an AppError) at info without a stack, and only a failure nobody handled as an error', async () => {
    const lines: { level: number; msg: string; err?: { stack?: string }; status?: number }[] = [];
    const logged = createServiceApp({ service: 'demo', logger: createLogger('demo', 'info', 'json', { write: (text: string) => lines.push(JSON.parse(text)) }), verifier: testVerifier() });
    serveRoute(logged, route('GET', '/api/mailbox', 'admin'), async () => { throw new AppError(502, 'mailbox_sign_in_failed', 'The mailbox refused its password'); });
    serveRoute(logged, route('GET', '/api/crash', 'admin'), async () => { throw new Error('a bug'); });
    expect((await logged.inject({ method: 'GET', url: '/api/mailbox', headers: admin })).json()).toEqual({ error: 'The mailbox refused its password' });
    expect(lines.map((line) => [line.level, line.msg, line.status])).toEqual([[30, 'request refused', 502]]);
    lines.length = 0;
    expect((await logged.inject({ method: 'GET', url: '/api/crash', headers: admin })).statusCode).toBe(500);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([[50, 'unhandled error'], [50, 'request failed']]);
    expect(lines[0].err?.stack).toContain('a bug');
    await logged.close();
  });

  it('notices a dependency away from a refused request, and its return by itself, with nobody probing /ready', async () => {
    const lines: LogLine[] = [];
    let databaseUp = false;
    const watched = appWithDatabase(lines, () => databaseUp);
    try {
      for (let i = 0; i < 10; i++) expect((await watched.inject({ method: 'GET', url: '/api/reads', headers: admin })).statusCode).toBe(503);
      await expect.poll(() => lines.filter((line) => line.msg.startsWith('not ready: the database is unreachable')).length).toBe(1);
      databaseUp = true;
      // The watch looks again every Retry-After (5 s) while not ready.
      await expect.poll(() => lines.filter((line) => line.msg === 'ready again').length, { timeout: 8_000 }).toBe(1);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
      // The refusals before the watch had confirmed the outage are each a warn line; none after.
      expect(lines.filter((line) => line.msg === 'dependency unavailable').length).toBeLessThanOrEqual(2);
    } finally {
      await watched.close();
    }
  });

  it('carries the caller\'s correlation id into the handler and echoes it', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/public', headers: { 'x-correlation-id': 'req-123' } });
    expect(response.json()).toEqual({ correlationId: 'req-123' });
    expect(response.headers['x-correlation-id']).toBe('req-123');
    const generated = await app.inject({ method: 'GET', url: '/api/public', headers: { 'x-correlation-id': 'bad id with spaces' } });
    expect(generated.json().correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
