import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger, createServiceApp, jsonDepthExceeds, logBody, logText, LOG_BODY_MAX_BYTES, serveRoute, WEBHOOK_BODY_LIMIT_BYTES } from '@bo/platform';
import { signedBy, testVerifier } from '@bo/platform/testing/identity';
import { defineRoute } from '@bo/proto';

const admin = signedBy('gateway', { kind: 'admin', userId: '1', email: 'a@example.com', isAdmin: true, keyId: null });

const seen: unknown[] = [];
const things = defineRoute({
  owner: 'pricing', method: 'POST', path: '/api/things/:name', access: 'admin', summary: 'things', category: 'Test',
  params: z.object({ name: z.string() }),
  query: z.object({ tag: z.string().optional() }),
  body: z.object({ note: z.unknown() }),
  reply: z.object({ ok: z.boolean() }),
  example: { params: { name: 'x' }, body: { note: 1 }, reply: { ok: true } },
});
const hook = defineRoute({
  owner: 'payments', method: 'POST', path: '/api/hook', access: 'public', webhook: true, summary: 'hook', category: 'Test',
  body: z.unknown(),
  reply: z.object({ ok: z.boolean() }),
  example: { body: {}, reply: { ok: true } },
});

const app = createServiceApp({ service: 'demo', logger: createLogger('demo', 'silent'), verifier: testVerifier() });
serveRoute(app, things, async ({ body }) => {
  seen.push(body);
  return { ok: true };
});
serveRoute(app, hook, async ({ body }) => {
  seen.push(body);
  return { ok: true };
});
afterAll(() => app.close());

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const post = (url: string, payload: string, headers: Record<string, string> = admin) =>
  app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload });

describe('hostile input is refused by the platform before the handler', () => {
  it('refuses U+0000 in a body string, a body key, a path parameter and a query value with 400 naming the field', async () => {
    seen.length = 0;
    const cases = [
      { url: '/api/things/a', payload: JSON.stringify({ note: { deep: ['ok', 'bad\u0000'] } }), field: 'body: note.deep.1' },
      { url: '/api/things/a', payload: JSON.stringify({ note: { ['k\u0000']: 1 } }), field: 'body: note.k\\u0000' },
      { url: '/api/things/a%00b', payload: JSON.stringify({ note: 1 }), field: 'params: name' },
      { url: '/api/things/a?tag=x%00', payload: JSON.stringify({ note: 1 }), field: 'query: tag' },
    ];
    for (const { url, payload, field } of cases) {
      const response = await post(url, payload);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toBe(`Invalid ${field}: must not contain a NUL character (U+0000)`);
    }
    expect(seen).toEqual([]);
    expect((await post('/api/things/a?tag=x', JSON.stringify({ note: 'fine' }))).statusCode).toBe(200);
  });

  it('refuses JSON nested deeper than 32 levels with 400 before parsing it, and takes 32', async () => {
    seen.length = 0;
    const deep = await post('/api/things/a', `{"note":${nested(32)}}`);
    expect(deep.statusCode).toBe(400);
    expect(deep.json().error).toBe('Invalid body: JSON nested deeper than 32 levels');
    // A million brackets: refused on the scan, quickly, without a stack overflow (a 500).
    const huge = await post('/api/things/a', nested(400_000));
    expect(huge.statusCode).toBe(400);
    expect(seen).toEqual([]);
    expect((await post('/api/things/a', `{"note":${nested(31)}}`)).statusCode).toBe(200);
    // Brackets inside strings are text, not nesting.
    expect((await post('/api/things/a', JSON.stringify({ note: '[[[[{{{{'.repeat(20) + '\\"[' }))).statusCode).toBe(200);
    // The parser still refuses prototype poisoning.
    expect((await post('/api/things/a', '{"note":1,"__proto__":{"admin":true}}')).statusCode).toBe(400);
  });

  it('holds a public webhook to 64 KiB (413), while other routes keep the 1 MiB limit', async () => {
    const body = (bytes: number) => JSON.stringify({ note: 'x'.repeat(bytes - 11) });
    expect(Buffer.byteLength(body(WEBHOOK_BODY_LIMIT_BYTES))).toBe(WEBHOOK_BODY_LIMIT_BYTES);
    expect((await post('/api/hook', body(WEBHOOK_BODY_LIMIT_BYTES), {})).statusCode).toBe(200);
    const tooBig = await post('/api/hook', body(WEBHOOK_BODY_LIMIT_BYTES + 1), {});
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: expect.stringMatching(/too large/i) });
    expect((await post('/api/things/a', body(200_000))).statusCode).toBe(200);
  });

  it('scans depth without being fooled by escaped quotes', () => {
    expect(jsonDepthExceeds(nested(33))).toBe(true);
    expect(jsonDepthExceeds(nested(32))).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ a: `\\"${'['.repeat(100)}` }))).toBe(false);
    expect(jsonDepthExceeds(`[${JSON.stringify('\\')},${nested(32)}]`)).toBe(true);
  });
});

describe('what a log row keeps of a body', () => {
  it('keeps a small body as it is, with U+0000 replaced, as valid JSON', () => {
    expect(logBody({ a: 'x\u0000y', b: ['\\u0000'] })).toEqual({ a: 'x\uFFFDy', b: ['\\u0000'] });
    expect(logBody(undefined)).toBeUndefined();
    expect(logBody(null)).toBeNull();
  });

  it('cuts a large body to a marked string of at most 8 KiB as stored JSON, whatever its characters', () => {
    for (const big of [{ s: 'x'.repeat(100_000) }, { s: 'é"\\'.repeat(20_000) }, { s: '😀'.repeat(10_000) }, { s: '\u0000'.repeat(20_000) }]) {
      const kept = logBody(big);
      expect(typeof kept).toBe('string');
      expect(Buffer.byteLength(JSON.stringify(kept))).toBeLessThanOrEqual(LOG_BODY_MAX_BYTES);
      expect(Buffer.byteLength(JSON.stringify(kept))).toBeGreaterThan(LOG_BODY_MAX_BYTES - 100);
      expect(kept).toMatch(/ …\[truncated: \d+ bytes\]$/);
      expect(kept).not.toContain('\u0000');
      // No lone surrogate: it survives a round trip through UTF-8.
      expect(Buffer.from(kept as string).toString()).toBe(kept);
    }
  });

  it('cuts a text column to 8 KiB the same way', () => {
    expect(logText('a\u0000b')).toBe('a\uFFFDb');
    const cut = logText('€'.repeat(10_000));
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(LOG_BODY_MAX_BYTES);
    expect(cut).toMatch(/^€+ …\[truncated: 30000 bytes\]$/);
  });
});
