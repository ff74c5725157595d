import { freePort, listen } from '@bo/sim-kit';
import { buildOidcSimulator, type OidcSimulator } from '@bo/sim-oidc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function signIn(email: string) {
  const start = await h.app.inject({ method: 'GET', url: '/api/login' });
  expect(start.statusCode).toBe(302);
  const preLogin = sessionCookie(start);
  const callback = await throughProvider(start.headers.location as string, email);
  const done = await h.app.inject({ method: 'GET', url: callback.pathname + callback.search, headers: { cookie: preLogin } });
  return { preLogin, callback, done };
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
