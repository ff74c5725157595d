import { freePort, listen } from '@bo/sim-kit';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOidcSimulator, type OidcSimulator } from '../src/app';

const CLIENT = { client_id: 'backoffice', client_secret: 'test-secret', redirect_uris: ['http://127.0.0.1:3999/api/callback'] };
const REDIRECT = CLIENT.redirect_uris[0];


/** A browser's cookie jar, just enough for the provider's interaction cookies. */
class Browser {
  private cookies = new Map<string, string>();

  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return response;
  }
}

let issuer: string;
let sim: OidcSimulator;
let config: client.Configuration;

beforeAll(async () => {
  issuer = `http://127.0.0.1:${await freePort()}`;
  sim = buildOidcSimulator({ issuer, client: CLIENT });
  await listen(sim.simulator.app, Number(new URL(issuer).port));
  config = await client.discovery(new URL(issuer), CLIENT.client_id, CLIENT.client_secret, undefined, { execute: [client.allowInsecureRequests] });
});
afterAll(() => sim.simulator.app.close());

/** Starts a sign-in as the relying party does, types the e-mail, and returns where the OP sent the browser back. */
async function signIn(email: string, name?: string) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT, scope: 'openid email profile', state, nonce,
    code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  const browser = new Browser();
  const toInteraction = await browser.go(url.href);
  expect(toInteraction.status).toBe(303);
  const interactionUrl = new URL(toInteraction.headers.get('location')!, issuer).href;
  const form = await browser.go(interactionUrl);
  expect(await form.text()).toContain('name="email"');
  const submitted = await browser.go(interactionUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, ...(name ? { name } : {}) }),
  });
  expect(submitted.status).toBe(303);
  let location = new URL(submitted.headers.get('location')!, issuer).href;
  for (let hops = 0; !location.startsWith(REDIRECT) && hops < 5; hops++) {
    const next = await browser.go(location);
    location = new URL(next.headers.get('location')!, issuer).href;
  }
  expect(location.startsWith(REDIRECT)).toBe(true);
  return { callback: new URL(location), verifier, state, nonce };
}

describe('OpenID Connect provider simulator', () => {
  it('publishes discovery for the plain-http issuer with PKCE S256', () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(issuer);
    expect(metadata.code_challenge_methods_supported).toContain('S256');
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
  });

  it('signs in whoever types an e-mail, with the claims in the id_token', async () => {
    const { callback, verifier, state, nonce } = await signIn('Admin@Example.com', 'Bat Dorj');
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()).toMatchObject({ iss: issuer, aud: CLIENT.client_id, sub: 'admin@example.com', email: 'admin@example.com', email_verified: true, given_name: 'Bat', family_name: 'Dorj' });
    const info = await client.fetchUserInfo(config, tokens.access_token, 'admin@example.com');
    expect(info.email).toBe('admin@example.com');

    const signIns = (await (await fetch(`${issuer}/__sim/sign-ins`)).json()) as { signIns: { email: string }[] };
    expect(signIns.signIns[0].email).toBe('admin@example.com');
    expect(await (await fetch(`${issuer}/__sim/`)).text()).toContain('admin@example.com');
  });

  it('refuses a callback with the wrong state, and a code used twice', async () => {
    const { callback, verifier, state, nonce } = await signIn('ops@example.com');
    await expect(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'someone-elses-state', expectedNonce: nonce })).rejects.toMatchObject({ code: 'OAUTH_INVALID_RESPONSE', cause: expect.objectContaining({ message: expect.stringMatching(/state/) }) });

    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()?.email).toBe('ops@example.com');
    await expect(client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('requires PKCE and refuses a bad e-mail', async () => {
    const withoutPkce = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', state: 'x' });
    const answer = await fetch(withoutPkce, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);

    const browser = new Browser();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: 'openid', code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
    });
    const interaction = new URL((await browser.go(url.href)).headers.get('location')!, issuer).href;
    const refused = await browser.go(interaction, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=not-an-email' });
    expect(refused.status).toBe(400);
  });
});

describe('ID token switches for relying-party tests', () => {
  const switches = (body: unknown) => fetch(`${issuer}/__sim/id-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const grant = async (email: string) => {
    const { callback, verifier, state, nonce } = await signIn(email);
    return client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  };

  it('says email_verified false, or nothing, when told; true again after reset', async () => {
    expect((await switches({ emailVerified: 'false' })).status).toBe(200);
    expect((await grant('no@example.com')).claims()).toMatchObject({ email: 'no@example.com', email_verified: false });
    await switches({ emailVerified: 'missing' });
    expect((await grant('maybe@example.com')).claims()).not.toHaveProperty('email_verified');
    await fetch(`${issuer}/__sim/reset`, { method: 'POST' });
    expect((await grant('yes@example.com')).claims()).toMatchObject({ email_verified: true });
  });

  it('issues a correctly signed ID token with a foreign nonce, a past expiry or another issuer', async () => {
    for (const [body, claim] of [[{ wrongNonce: true }, 'nonce'], [{ expired: true }, 'exp'], [{ issuer: 'https://impostor.example' }, 'iss']] as const) {
      await switches(body);
      await expect(grant('victim@example.com'), claim).rejects.toMatchObject({ cause: expect.objectContaining({ message: expect.stringContaining(`"${claim}"`) }) });
      await fetch(`${issuer}/__sim/id-token`, { method: 'DELETE' });
    }
    expect((await grant('victim@example.com')).claims()?.email).toBe('victim@example.com');
  });

  it('names a bad switch in a 400', async () => {
    const response = await switches({ expired: 'yes', colour: 'red' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/expired, colour/);
  });
});
