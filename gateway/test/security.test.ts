import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdmin, signInAsNonAdmin, signInLocalAdmin, startHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const signInNonAdmin = (email?: string) => signInAsNonAdmin(h, email);

describe('CSRF and cross-site requests', () => {
  it('refuses a missing or foreign token and a cross-site Origin; accepts its own token', async () => {
    const a = await signInLocalAdmin(h.app, h.prisma, 'csrf-a');
    const b = await signInLocalAdmin(h.app, h.prisma, 'csrf-b');
    const post = (headers: Record<string, string>) => h.app.inject({ method: 'POST', url: '/api/sheets/update', headers, payload: { rowIndex: 1 } });
    expect((await post({ cookie: a.cookie })).statusCode).toBe(403);
    expect((await post({ cookie: a.cookie, 'x-csrf-token': b.csrfToken })).statusCode).toBe(403);
    expect((await post({ cookie: a.cookie, 'x-csrf-token': a.csrfToken, origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await post({ cookie: a.cookie, 'x-csrf-token': a.csrfToken, origin: 'http://127.0.0.1:3999' })).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('sets HttpOnly, SameSite=Lax, Path=/ and rotates the id at sign-in', async () => {
    // Anonymous visitors get no session at all (sessions.test.ts); the cookie brought is an earlier session's.
    const earlier = await signInLocalAdmin(h.app, h.prisma, 'rotate-earlier');
    const anonymousCookie = earlier.cookie;
    await createLocalAdmin(h.prisma, 'rotate');
    const login = await h.app.inject({ method: 'POST', url: '/api/admin/login', headers: { cookie: anonymousCookie, 'x-csrf-token': earlier.csrfToken }, payload: { username: 'rotate', password: 'correct horse battery' } });
    const cookie = login.cookies.find((c) => c.name === 'sid')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(`sid=${cookie.value}`).not.toBe(anonymousCookie);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: anonymousCookie } })).statusCode).toBe(401);
  });

  it('uses __Host-sid with Secure behind a trusted TLS proxy', async () => {
    const app = await h.buildAnother({ PUBLIC_URL: 'https://admin.example.com', TRUST_PROXY: '127.0.0.1/32' });
    await createLocalAdmin(h.prisma, 'secure');
    const login = await app.inject({ method: 'POST', url: '/api/admin/login', headers: { 'x-forwarded-proto': 'https' }, payload: { username: 'secure', password: 'correct horse battery' } });
    expect(login.cookies.find((c) => c.name === '__Host-sid')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(login.headers['strict-transport-security']).toContain('max-age=31536000');
  });

  it('asks browsers to upgrade to HTTPS (CSP and HSTS) only when PUBLIC_URL is https', async () => {
    const overHttps = await (await h.buildAnother({ PUBLIC_URL: 'https://admin.example.com' })).inject({ method: 'GET', url: '/api' });
    expect(overHttps.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(overHttps.headers['strict-transport-security']).toContain('max-age=31536000');
    const overHttp = await (await h.buildAnother({ PUBLIC_URL: 'http://192.168.1.20:5000' })).inject({ method: 'GET', url: '/api' });
    expect(overHttp.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(overHttp.headers['content-security-policy']).toContain("default-src 'self'");
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('ends the session at logout', async () => {
    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'leaver');
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(200);
    const logout = await h.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(logout.statusCode).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('ends every session of a disabled user at once', async () => {
    const victim = await signInNonAdmin('victim@example.com');
    const admin = await signInLocalAdmin(h.app, h.prisma, 'disabler');
    const user = await h.prisma.user.findUniqueOrThrow({ where: { email: 'victim@example.com' } });
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: victim } })).statusCode).toBe(200);
    const disable = await h.app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/disable`, headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken } });
    expect(disable.json()).toMatchObject({ success: true, sessionsEnded: 1 });
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: victim } })).statusCode).toBe(401);
  });

  it('ends a session after 30 minutes idle and after 12 hours in all', async () => {
    for (const times of [{ createdAt: Date.now() - 60 * 60_000, lastSeenAt: Date.now() - 31 * 60_000 }, { createdAt: Date.now() - 12 * 3_600_000 - 1, lastSeenAt: Date.now() - 1_000 }]) {
      const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'sleepy');
      const sid = decodeURIComponent(cookie.slice('sid='.length)).split('.')[0];
      const row = await h.prisma.session.findUniqueOrThrow({ where: { sid } });
      await h.prisma.session.update({ where: { sid }, data: { sess: { ...(row.sess as object), ...times } } });
      expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    }
  });
});

describe('password sign-in and its limits', () => {
  it('names the bad field in a 400', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('password');
  });

  it('answers 429 after 10 failures for one account, even with the right password', async () => {
    await createLocalAdmin(h.prisma, 'target');
    const attempt = (password: string) => h.app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: '10.9.9.9', payload: { username: 'target', password } });
    for (let i = 0; i < 10; i++) expect((await attempt('wrong')).statusCode).toBe(401);
    expect((await attempt('correct horse battery')).statusCode).toBe(429);
  });

  // A second gateway of its own and its sign-ins: 30 s was not enough on a CI machine at a load of 10.
  it('gives two clients behind the trusted proxy two buckets, and a forged X-Forwarded-For none of its own', { timeout: 90_000 }, async () => {
    const app = await h.buildAnother({ TRUST_PROXY: '10.0.0.1/32' });
    const attempt = (remoteAddress: string, forwardedFor: string, username: string) =>
      app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress, headers: { 'x-forwarded-for': forwardedFor }, payload: { username, password: 'wrong' } });
    // 100 failures from client 203.0.113.1 (spread over accounts so only the address limit applies).
    for (let i = 0; i < 100; i++) await attempt('10.0.0.1', '203.0.113.1', `user${i % 20}-${i}`);
    expect((await attempt('10.0.0.1', '203.0.113.1', 'fresh-a')).statusCode).toBe(429);
    expect((await attempt('10.0.0.1', '203.0.113.2', 'fresh-b')).statusCode).toBe(401);
    // An untrusted peer cannot pick its bucket: its forged header is ignored, its own address counts.
    for (let i = 0; i < 100; i++) await attempt('198.51.100.7', `192.0.2.${i}`, `forged-${i}`);
    expect((await attempt('198.51.100.7', '192.0.2.250', 'forged-new')).statusCode).toBe(429);
  });

  it('keys on the address the one trusted proxy appended under TRUST_PROXY=1 (production), whatever the client forged', async () => {
    const app = await h.buildAnother({ TRUST_PROXY: '1' });
    // The proxy (10.0.0.2) appends the address it saw to whatever X-Forwarded-For the client sent.
    const viaProxy = (forged: string, client: string, username: string) =>
      app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': `${forged}, ${client}` }, payload: { username, password: 'wrong' } });
    for (let i = 0; i < 100; i++) expect((await viaProxy(`192.0.2.${i}, 10.0.0.${i}`, '203.0.113.9', `hop-${i}`)).statusCode).toBe(401);
    expect((await viaProxy('192.0.2.250', '203.0.113.9', 'hop-new')).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.9', '203.0.113.10', 'hop-other')).statusCode).toBe(401);
  });
});
