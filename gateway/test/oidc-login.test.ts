import { freePort, listen } from '@bo/sim-kit';
import { buildOidcSimulator, type OidcSimulator } from '@bo/sim-oidc';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ServiceApp } from '@bo/platform';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, startHarness, TEST_ENV, type Harness } from './support/harness';

const CALLBACK = `${TEST_ENV.PUBLIC_URL}/api/callback`;
let h: Harness;
let sim: OidcSimulator;
let issuer: string;


beforeAll(async () => {
  issuer = `http://127.0.0.1:${await freePort()}`;
  sim = buildOidcSimulator({ issuer, client: { client_id: 'backoffice', client_secret: 'test-secret', redirect_uris: [CALLBACK] } });
  await listen(sim.simulator.app, Number(new URL(issuer).port));
  h = await startHarness({ OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'backoffice', OIDC_CLIENT_SECRET: 'test-secret' });
});
afterAll(async () => {
  await h.close();
  await sim.simulator.app.close();
});

/** Drives the provider's pages like a browser and returns the callback URL it sends back to. */
async function throughProvider(authorizationUrl: string, email: string): Promise<URL> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return response;
  };
  const interaction = new URL((await go(authorizationUrl)).headers.get('location')!, issuer).href;
  const submitted = await go(interaction, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, name: 'Bat Dorj' }) });
  let location = new URL(submitted.headers.get('location')!, issuer).href;
  for (let hops = 0; !location.startsWith(CALLBACK) && hops < 5; hops++) location = new URL((await go(location)).headers.get('location')!, issuer).href;
  return new URL(location);
}

async function signIn(email: string, app: FastifyInstance = h.app) {
  const start = await app.inject({ method: 'GET', url: '/api/login' });
  expect(start.statusCode).toBe(302);
  const preLogin = sessionCookie(start);
  const callback = await throughProvider(start.headers.location as string, email);
  const done = await app.inject({ method: 'GET', url: callback.pathname + callback.search, headers: { cookie: preLogin } });
  return { preLogin, callback, done };
}

/** Sets the simulator's ID token switches (cleared after each test). */
async function idTokenSwitches(switches: Record<string, unknown>) {
  const response = await fetch(`${issuer}/__sim/id-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(switches) });
  expect(response.status).toBe(200);
}
afterEach(async () => void (await fetch(`${issuer}/__sim/id-token`, { method: 'DELETE' })));

/** A refused sign-in: 401 naming the reason, no session cookie, no session row for the e-mail. */
async function expectRefused(attempt: { preLogin: string; done: LightMyRequestResponse }, email: string, reason: RegExp) {
  expect(attempt.done.statusCode).toBe(401);
  expect(attempt.done.json().error).toMatch(reason);
  expect(attempt.done.cookies.filter((c) => c.name === 'sid' && c.value !== '')).toEqual([]);
  expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: attempt.preLogin } })).statusCode).toBe(401);
  const rows = await h.prisma.session.findMany();
  expect(rows.filter((row) => (row.sess as { auth?: { email?: string } }).auth?.email === email)).toEqual([]);
}

describe('admin sign-in through OpenID Connect', () => {
  it('signs in an admin e-mail, stores the user, rotates the session and redirects to /', async () => {
    const { preLogin, done } = await signIn('boss@example.com');
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/');
    const cookie = sessionCookie(done);
    expect(cookie).not.toBe(preLogin);
    const user = (await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json();
    expect(user).toMatchObject({ email: 'boss@example.com', firstName: 'Bat', lastName: 'Dorj', isAdmin: true });
    expect((await h.app.inject({ method: 'GET', url: '/api/monitoring/requests', headers: { cookie } })).statusCode).toBe(200);
    // Every call to the provider went through the outside client: on the gateway's /metrics by endpoint.
    const metrics = (await (h.app as ServiceApp).operations.inject({ method: 'GET', url: '/metrics' })).body;
    for (const endpoint of ['/.well-known/openid-configuration', '/token']) {
      expect(metrics).toMatch(new RegExp(`^outside_call_duration_seconds_count\\{service="gateway",system="oidc",operation="[^"]*${endpoint.replace(/[./-]/g, (c) => `\\${c}`)}",outcome="ok"\\} [1-9]`, 'm'));
    }
  });

  it("tries the provider's discovery once more after a server error, and counts the failure on /metrics", async () => {
    sim.simulator.faults.add({ pathPrefix: '/.well-known/openid-configuration', kind: 'status', status: 503, times: 1 });
    const fresh = (await h.buildAnother()) as ServiceApp;
    const { done } = await signIn('boss@example.com', fresh);
    expect(done.statusCode).toBe(302);
    expect(sim.simulator.journal.list().filter((entry) => entry.url.startsWith('/.well-known/openid-configuration')).map((entry) => entry.status).slice(0, 2)).toEqual([200, 503]);
    const metrics = (await fresh.operations.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/^outside_call_duration_seconds_count\{service="gateway",system="oidc",operation="\/\.well-known\/openid-configuration",outcome="server_error"\} 1$/m);
    expect(metrics).toMatch(/^outside_call_duration_seconds_count\{service="gateway",system="oidc",operation="\/\.well-known\/openid-configuration",outcome="ok"\} 1$/m);
  });

  it('signs in other e-mails as non-admins, who get 403 on admin routes', async () => {
    const { done } = await signIn('someone@example.com');
    const cookie = sessionCookie(done);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json()).toMatchObject({ isAdmin: false });
    expect((await h.app.inject({ method: 'GET', url: '/api/monitoring/requests', headers: { cookie } })).statusCode).toBe(403);
  });

  it('refuses a replayed callback and one from another browser', async () => {
    const { preLogin, callback } = await signIn('boss@example.com');
    const replay = await h.app.inject({ method: 'GET', url: callback.pathname + callback.search, headers: { cookie: preLogin } });
    expect(replay.statusCode).toBe(400);
    const stranger = await h.app.inject({ method: 'GET', url: callback.pathname + callback.search });
    expect(stranger.statusCode).toBe(400);
  });

  it('logs out by navigation and redirects to /login', async () => {
    const { done } = await signIn('boss@example.com');
    const cookie = sessionCookie(done);
    const logout = await h.app.inject({ method: 'GET', url: '/api/logout', headers: { cookie } });
    expect(logout.headers.location).toBe('/login');
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('who signs in through OpenID Connect', () => {
  it('keys users by issuer and subject', async () => {
    await signIn('boss@example.com');
    expect(await h.prisma.user.findUniqueOrThrow({ where: { email: 'boss@example.com' } })).toMatchObject({ oidcIssuer: issuer, oidcSubject: 'boss@example.com' });
  });

  it('refuses an e-mail that another subject owns, and leaves that account alone', async () => {
    const owner = await h.prisma.user.create({ data: { email: 'taken@example.com', oidcIssuer: issuer, oidcSubject: 'someone-else', firstName: 'Owner' } });
    const { done } = await signIn('taken@example.com');
    expect(done.statusCode).toBe(403);
    expect(done.cookies.filter((c) => c.name === 'sid' && c.value !== '')).toEqual([]);
    expect(await h.prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).toEqual(owner);
  });

  it('adopts an account recorded before subjects were, by its e-mail, once', async () => {
    const legacy = await h.prisma.user.create({ data: { email: 'legacy@example.com' } });
    expect((await signIn('legacy@example.com')).done.statusCode).toBe(302);
    expect(await h.prisma.user.findUniqueOrThrow({ where: { id: legacy.id } })).toMatchObject({ oidcIssuer: issuer, oidcSubject: 'legacy@example.com' });
  });

  it('refuses an e-mail the provider says is not verified', async () => {
    await idTokenSwitches({ emailVerified: 'false' });
    await expectRefused(await signIn('unverified@example.com'), 'unverified@example.com', /not verified/);
  });

  it('refuses a missing email_verified unless OIDC_ALLOW_MISSING_EMAIL_VERIFIED is set', async () => {
    await idTokenSwitches({ emailVerified: 'missing' });
    await expectRefused(await signIn('silent@example.com'), 'silent@example.com', /did not say the e-mail is verified/);
    const lenient = await h.buildAnother({ OIDC_ALLOW_MISSING_EMAIL_VERIFIED: 'true' });
    const { done } = await signIn('silent@example.com', lenient);
    expect(done.statusCode).toBe(302);
    expect((await lenient.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: sessionCookie(done) } })).json()).toMatchObject({ email: 'silent@example.com' });
  });

  it('refuses an ID token with another nonce, an expired one, and one from another issuer', async () => {
    for (const [switches, reason] of [
      [{ wrongNonce: true }, /"nonce"/],
      [{ expired: true }, /"exp" \(expiration time\)/],
      [{ issuer: 'https://impostor.example' }, /"iss" \(issuer\)/],
    ] as const) {
      await idTokenSwitches(switches);
      await expectRefused(await signIn('target@example.com'), 'target@example.com', reason);
      await fetch(`${issuer}/__sim/id-token`, { method: 'DELETE' });
    }
    // The same sign-in with an honest token goes through, so each refusal above was the claim's doing.
    expect((await signIn('target@example.com')).done.statusCode).toBe(302);
  });
});

describe('rights follow the account as it is now', () => {
  it('takes admin rights away on the next request, proxied routes included, once the e-mail leaves ADMIN_EMAILS', async () => {
    const cookie = sessionCookie((await signIn('boss@example.com')).done);
    expect((await h.app.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(200);
    const replica = await h.buildAnother({ ADMIN_EMAILS: 'someone-else@example.com' });
    expect((await replica.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(403);
    expect((await replica.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).json()).toMatchObject({ isAdmin: false });
  });

  it('ends the session of a user disabled in the database on the next proxied request', async () => {
    const cookie = sessionCookie((await signIn('chief@example.com')).done);
    const admins = await h.buildAnother({ ADMIN_EMAILS: 'chief@example.com' });
    expect((await admins.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(200);
    await h.prisma.user.update({ where: { email: 'chief@example.com' }, data: { disabledAt: new Date() } });
    // Another replica, so no cached account state is in play (each keeps one for 2 s).
    const replica = await h.buildAnother({ ADMIN_EMAILS: 'chief@example.com' });
    expect((await replica.inject({ method: 'GET', url: '/api/cache/status', headers: { cookie } })).statusCode).toBe(401);
    expect((await replica.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
  });
});
