import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdmin, sessionCookie, signInLocalAdmin, startHarness, type Harness } from './support/harness';

/**
 * A pricing stand-in for /api/cache/status. After `nextArrival()` the next request is held until
 * `releaseAll()`: it stays in flight in the gateway, session loaded, as long as the test wants.
 */
async function startHoldingUpstream() {
  const waiting: (() => void)[] = [];
  const arrivals: (() => void)[] = [];
  const app = Fastify();
  app.get('/api/cache/status', async () => {
    const arrived = arrivals.shift();
    if (arrived) {
      arrived();
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    return { cached: true, ageSeconds: 1, ttlSeconds: 300 };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    /** Resolves once the next held request has reached the upstream. */
    nextArrival: () => new Promise<void>((resolve) => arrivals.push(resolve)),
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
    close: () => app.close(),
  };
}

let h: Harness;
let upstream: Awaited<ReturnType<typeof startHoldingUpstream>>;
beforeAll(async () => {
  upstream = await startHoldingUpstream();
  h = await startHarness({ PRICING_URL: upstream.url });
});
afterAll(async () => {
  upstream?.releaseAll();
  await h?.close();
  await upstream?.close();
});

const sidOf = (cookie: string) => decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.')[0];
const currentUser = (cookie: string) => h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });

/** Makes the session's last activity two minutes old, so its next request rewrites lastSeenAt (a save). */
async function ageSession(cookie: string): Promise<void> {
  const sid = sidOf(cookie);
  const row = await h.prisma.session.findUniqueOrThrow({ where: { sid } });
  await h.prisma.session.update({ where: { sid }, data: { sess: { ...(row.sess as object), lastSeenAt: Date.now() - 2 * 60_000 } } });
}

/** Runs `end` while a request of this session is held in flight, then lets that request finish. */
async function endWhileInFlight(cookie: string, end: () => Promise<{ statusCode: number }>) {
  await ageSession(cookie);
  const arrived = upstream.nextArrival();
  const inFlight = h.app.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } });
  await arrived;
  expect((await end()).statusCode).toBe(200);
  upstream.releaseAll();
  expect((await inFlight).statusCode).toBe(200);
}

describe('a session once ended stays ended', () => {
  it('is not saved back by a request that was in flight during the logout', async () => {
    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'inflight-logout');
    await endWhileInFlight(cookie, () => h.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'x-csrf-token': csrfToken } }));
    expect((await currentUser(cookie)).statusCode).toBe(401);
    expect(await h.prisma.session.count({ where: { sid: sidOf(cookie) } })).toBe(0);
  });

  it('is not saved back by a request that was in flight when an operator terminated it', async () => {
    const victim = await signInLocalAdmin(h.app, h.prisma, 'inflight-victim');
    const operator = await signInLocalAdmin(h.app, h.prisma, 'inflight-operator');
    const { id } = await h.prisma.localAdmin.findUniqueOrThrow({ where: { username: 'inflight-victim' } });
    await endWhileInFlight(victim.cookie, () =>
      h.app.inject({ method: 'POST', url: `/api/admin/users/local:${id}/terminate-sessions`, headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken } }),
    );
    expect((await currentUser(victim.cookie)).statusCode).toBe(401);
    expect((await currentUser(operator.cookie)).statusCode).toBe(200);
  });
});

describe('disabling an account', () => {
  it('disables a local password account through the admin route and ends its sessions on every route', async () => {
    const victim = await signInLocalAdmin(h.app, h.prisma, 'local-victim');
    const operator = await signInLocalAdmin(h.app, h.prisma, 'local-operator');
    const { id } = await h.prisma.localAdmin.findUniqueOrThrow({ where: { username: 'local-victim' } });
    const disable = await h.app.inject({ method: 'POST', url: `/api/admin/users/local:${id}/disable`, headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken } });
    expect(disable.statusCode).toBe(200);
    expect(disable.json()).toEqual({ success: true, sessionsEnded: 1 });
    expect((await currentUser(victim.cookie)).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie: victim.cookie } })).statusCode).toBe(401);
    const again = await h.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'local-victim', password: 'correct horse battery' } });
    expect(again.statusCode).toBe(401);
  });

  it('answers 404 for an account that does not exist', async () => {
    const operator = await signInLocalAdmin(h.app, h.prisma, 'lookup-operator');
    for (const id of ['local:00000000-0000-0000-0000-000000000000', 'no-such-user']) {
      const response = await h.app.inject({ method: 'POST', url: `/api/admin/users/${id}/disable`, headers: { cookie: operator.cookie, 'x-csrf-token': operator.csrfToken } });
      expect(response.statusCode, id).toBe(404);
    }
  });

  it('refuses a local account disabled in the database on its next proxied request', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'sql-disabled');
    expect((await h.app.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(200);
    // As an operator's SQL would: the account is marked, its session row is left. The next request
    // (here on another replica, so no cached account state is in play) ends the session.
    await h.prisma.localAdmin.update({ where: { username: 'sql-disabled' }, data: { disabledAt: new Date() } });
    const replica = await h.buildAnother();
    expect((await replica.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(401);
    expect(await h.prisma.session.count({ where: { sid: sidOf(cookie) } })).toBe(0);
  });
});

describe('anonymous visitors', () => {
  it('get a CSRF token without a session row or cookie; a signed-in session keeps a working one', async () => {
    const before = await h.prisma.session.count();
    for (let i = 0; i < 50; i++) {
      const response = await h.app.inject({ method: 'GET', url: '/api/auth/csrf' });
      expect(response.statusCode).toBe(200);
      expect(typeof response.json().token).toBe('string');
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await h.prisma.session.count()).toBe(before);

    const { cookie, csrfToken } = await signInLocalAdmin(h.app, h.prisma, 'token-keeper');
    const write = await h.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(write.statusCode).toBe(200);
  });

  it('do not get a row when their expired session is replaced', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'expired-visitor');
    const sid = sidOf(cookie);
    const row = await h.prisma.session.findUniqueOrThrow({ where: { sid } });
    await h.prisma.session.update({ where: { sid }, data: { sess: { ...(row.sess as object), lastSeenAt: Date.now() - 31 * 60_000 } } });
    const before = await h.prisma.session.count();
    expect((await currentUser(cookie)).statusCode).toBe(401);
    expect(await h.prisma.session.count()).toBe(before - 1);
  });
});

describe('logout by navigation', () => {
  const logout = (cookie: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie, ...headers } });

  it('ignores a logout another site started', async () => {
    const { cookie } = await signInLocalAdmin(h.app, h.prisma, 'cross-site-target');
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
    ]) {
      const response = await logout(cookie, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(302);
      expect(response.headers.location).toBe('/');
      expect((await currentUser(cookie)).statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('logs out when the user navigates from the app or types the address', async () => {
    for (const [name, headers] of [
      ['same-origin', { 'sec-fetch-site': 'same-origin', referer: 'http://127.0.0.1:3999/settings' }],
      ['typed', { 'sec-fetch-site': 'none' }],
    ] as const) {
      const { cookie } = await signInLocalAdmin(h.app, h.prisma, `navigator-${name}`);
      const response = await logout(cookie, headers);
      expect(response.headers.location, name).toBe('/login');
      expect((await currentUser(cookie)).statusCode, name).toBe(401);
    }
  });
});

describe('session fixation', () => {
  it('gives a new id at sign-in even to a browser that brings a valid session cookie', async () => {
    const planted = await signInLocalAdmin(h.app, h.prisma, 'fixation-planted');
    const victim = await createLocalAdmin(h.prisma, 'fixation-victim');
    const login = await h.app.inject({ method: 'POST', url: '/api/admin/login', headers: { cookie: planted.cookie, 'x-csrf-token': planted.csrfToken }, payload: victim });
    expect(login.statusCode).toBe(200);
    expect(sessionCookie(login)).not.toBe(planted.cookie);
    expect(await h.prisma.session.count({ where: { sid: sidOf(planted.cookie) } })).toBe(0);
  });
});
