import type { ServiceApp } from '@bo/platform';
import { asAdmin, startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import type { PrismaClient as StreamingKeysPrisma } from '@bo/streaming-keys/generated/prisma/client';
import streamingKeys from '@bo/streaming-keys/service';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, signInLocalAdmin, startHarness, type Harness } from './support/harness';

// The gateway in front of the real streaming-keys service (payments and ai-chat only get addresses): sign-in, the session it starts, the
// limits on guessing (in Redis, shared by two gateways), and the session's end.
let system: TestSystem;
let h: Harness;
let second: FastifyInstance;
let keys: { id: number; key: string; email: string }[];
let expiredKey: { id: number; key: string; email: string };

beforeAll(async () => {
  system = await startTestSystem('gateway-customer', { services: ['streaming-keys', 'payments', 'ai-chat'] });
  await system.start(streamingKeys as never);
  h = await startHarness({ STREAMING_KEYS_URL: system.url('streaming-keys') });
  second = await h.buildAnother();
  const made = await system.call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.shared@example.mn', months: 1, profiles: 3 }, asAdmin);
  expect(made.status).toBe(200);
  keys = made.body.data.keys;
  const old = await system.call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'DPS', email: 'dps.shared@example.mn', months: 1 }, asAdmin);
  expiredKey = old.body.data.keys[0];
  const keysDb = system.running('streaming-keys')!.prisma as StreamingKeysPrisma;
  await keysDb.streamingKey.update({ where: { id: expiredKey.id }, data: { expiresAt: new Date(Date.now() - 86_400_000) } });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await system?.stop();
});

const signIn = (payload: unknown, options: { ip?: string; app?: FastifyInstance; cookie?: string } = {}) =>
  (options.app ?? h.app).inject({
    method: 'POST',
    url: '/api/customer/login-direct',
    remoteAddress: options.ip ?? '203.0.113.10',
    payload: payload as Record<string, string>,
    headers: options.cookie ? { cookie: options.cookie } : {},
  });

const customerSession = (cookie: string, app: FastifyInstance = h.app) => app.inject({ method: 'GET', url: '/api/customer/session', headers: { cookie } });

const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.statusCode]: (counts[r.statusCode] ?? 0) + 1 }), {});

async function signInCount(outcome: 'accepted' | 'refused'): Promise<number> {
  const text = (await (h.app as ServiceApp).operations.inject({ method: 'GET', url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`gateway_customer_sign_ins_total{outcome="${outcome}"}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('customer sign-in', () => {
  it('signs in with the account e-mail and the key, spaces and case forgiven, and answers the service page', async () => {
    const key = keys[0];
    const spaced = `${key.key.slice(0, 6)} ${key.key.slice(6).toLowerCase()} `;
    const response = await signIn({ email: ` ${key.email.toUpperCase()}`, key: spaced });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, serviceName: 'Netflix', service: 'NFX', redirectUrl: '/netflix', keyId: key.id });
    const cookie = sessionCookie(response);
    expect((await customerSession(cookie)).json()).toEqual({ authenticated: true, email: key.email, keyId: key.id });
    // The dashboard's user endpoint does not know customers, and asking it does not end their session.
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    expect((await customerSession(cookie)).json().authenticated).toBe(true);
  });

  it('says who is not signed in', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/customer/session' })).json()).toEqual({ authenticated: false, email: null, keyId: null });
  });

  it('refuses a key with another account e-mail, an unknown key and missing fields, with the texts of document 3', async () => {
    const wrongEmail = await signIn({ email: 'someone.else@example.mn', key: keys[1].key }, { ip: '203.0.113.11' });
    expect(wrongEmail.statusCode).toBe(401);
    expect(wrongEmail.json().error).toBe('Invalid email or key');
    const unknown = await signIn({ email: keys[1].email, key: 'SK-AAAAAAAAAA-NFX' }, { ip: '203.0.113.11' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('Invalid email or key');
    for (const payload of [{ email: '', key: keys[1].key }, { email: keys[1].email, key: '   ' }, {}]) {
      const missing = await signIn(payload, { ip: '203.0.113.11' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error).toContain('Please enter your email and key');
    }
    const noSuffix = await signIn({ email: keys[1].email, key: 'SK-AAAAAAAAAA-XYZ' }, { ip: '203.0.113.11' });
    expect(noSuffix.statusCode).toBe(400);
    expect(noSuffix.json().error).toContain('-NFX, -DPS, -AMZ, -HLU or -MAX');
  });

  it('signs in an expired key (its page shows the expiry)', async () => {
    const response = await signIn({ email: expiredKey.email, key: expiredKey.key }, { ip: '203.0.113.12' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().redirectUrl).toBe('/disney');
  });

  it('starts a new session at sign-in: the session the browser had before is gone', async () => {
    const admin = await signInLocalAdmin(h.app, h.prisma, 'rotating-admin');
    const response = await signIn({ email: keys[1].email, key: keys[1].key }, { ip: '203.0.113.13', cookie: admin.cookie });
    // A signed-in browser must present its CSRF token even to sign in again.
    expect(response.statusCode).toBe(403);
    const withToken = await h.app.inject({
      method: 'POST', url: '/api/customer/login-direct', remoteAddress: '203.0.113.13',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken }, payload: { email: keys[1].email, key: keys[1].key },
    });
    expect(withToken.statusCode, withToken.body).toBe(200);
    const cookie = sessionCookie(withToken);
    expect(cookie).not.toBe(admin.cookie);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: admin.cookie } })).statusCode).toBe(401);
    expect((await customerSession(cookie)).json().keyId).toBe(keys[1].id);
  });

  it('ends the session at logout: the old cookie is anonymous on both gateways', async () => {
    const cookie = sessionCookie(await signIn({ email: keys[2].email, key: keys[2].key }, { ip: '203.0.113.14' }));
    expect((await customerSession(cookie, second)).json().authenticated).toBe(true);
    const csrf = (await h.app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie } })).json().token;
    const logout = await h.app.inject({ method: 'POST', url: '/api/customer/logout', headers: { cookie, 'x-csrf-token': csrf } });
    expect(logout.statusCode).toBe(200);
    expect((await customerSession(cookie)).json().authenticated).toBe(false);
    expect((await customerSession(cookie, second)).json().authenticated).toBe(false);
    expect((await h.app.inject({ method: 'GET', url: '/api/customer/keys', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('guessing keys', () => {
  it('gives 1,000 parallel wrong keys for a real e-mail from one address 0 successes, and refuses at least 990 before they are checked', async () => {
    const refusedBefore = await signInCount('refused');
    const guesses = Array.from({ length: 1_000 }, (_, i) => `SK-${String(i).padStart(10, '0')}-NFX`);
    // Half through each of two gateways: the count lives in Redis, not in either process.
    const responses = await Promise.all(guesses.map((key, i) => signIn({ email: keys[0].email, key }, { ip: '198.51.100.7', app: i % 2 ? second : h.app })));
    const counts = statuses(responses);
    expect(counts[200] ?? 0).toBe(0);
    expect(counts[429]).toBeGreaterThanOrEqual(990);
    expect((counts[401] ?? 0) + counts[429]).toBe(1_000);
    expect((await signInCount('refused')) - refusedBefore).toBeLessThanOrEqual(10);
    // The right key from that address waits out the window too; from another address it works.
    expect((await signIn({ email: keys[0].email, key: keys[0].key }, { ip: '198.51.100.7' })).statusCode).toBe(429);
    expect((await signIn({ email: keys[0].email, key: keys[0].key }, { ip: '198.51.100.8' })).statusCode).toBe(200);
  });

  it('refuses more than 100 failures from one address whatever the e-mails', async () => {
    const responses = await Promise.all(Array.from({ length: 130 }, (_, i) => signIn({ email: `spray${i}@example.mn`, key: 'SK-BBBBBBBBBB-NFX' }, { ip: '198.51.100.20', app: i % 2 ? second : h.app })));
    expect(statuses(responses)).toEqual({ 401: 100, 429: 30 });
  });

  it('keeps customer and admin sign-in counts apart', async () => {
    for (let i = 0; i < 10; i++) await signIn({ email: 'shared-name@example.mn', key: 'SK-CCCCCCCCCC-NFX' }, { ip: '198.51.100.30' });
    expect((await signIn({ email: 'shared-name@example.mn', key: 'SK-CCCCCCCCCC-NFX' }, { ip: '198.51.100.30' })).statusCode).toBe(429);
    const admin = await h.app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: '198.51.100.30', payload: { username: 'shared-name@example.mn', password: 'x' } });
    expect(admin.statusCode).toBe(401);
  });
});
