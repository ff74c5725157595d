import * as oidc from 'openid-client';
import { serviceUnavailable } from '@bo/platform';
import type { OutsideSystem } from '@bo/platform/outside';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Accept claims without email_verified (OIDC_ALLOW_MISSING_EMAIL_VERIFIED); false is always refused. */
  allowMissingEmailVerified: boolean;
}

/** What must be kept server-side between the redirect and the callback (ASVS 10.1.2). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClaims {
  /** Who signed in: the provider's issuer and its subject identifier for the person. */
  issuer: string;
  subject: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is allowed only for a provider on this machine (the local simulator). */
export function allowsInsecureIssuer(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
}

/** The identity provider answered with a server error. */
class ProviderFailed extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
  ) {
    super(`the identity provider answered ${status}`);
  }
}

/** The provider as an outside system (metrics, breaker): each try's deadline, and a GET tried once more. */
export function oidcSystem(issuer: string): { system: string; baseUrl: string; timeoutMs: number; retry: { retries: number } } {
  return { system: 'oidc', baseUrl: issuer, timeoutMs: 10_000, retry: { retries: 1 } };
}

/**
 * Admin sign-in through OpenID Connect: authorization code flow with PKCE, state and nonce. Every
 * request openid-client makes (discovery, keys, the token, user info) goes through the outside
 * client, named by its endpoint's path.
 */
export class OidcClient {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: OidcSettings,
    private readonly provider: OutsideSystem,
  ) {}

  private readonly fetchThroughProvider: oidc.CustomFetch = (url, options) =>
    this.provider.run(
      { operation: new URL(url).pathname, idempotent: options.method === 'GET', signal: options.signal },
      // openid-client's body type is wider than fetch's declared one; it only ever sends a string or URLSearchParams.
      async (deadline) => {
        const response = await fetch(url, { ...options, body: options.body as RequestInit['body'], signal: deadline });
        // A server error is the provider failing (the breaker counts it, a GET is tried once more); the rest is openid-client's to read.
        if (response.status >= 500) throw new ProviderFailed(response.status, response.headers);
        return response;
      },
      (error) => (error instanceof ProviderFailed ? { status: error.status, headers: error.headers } : null),
    );

  private discover(): Promise<oidc.Configuration> {
    const issuer = new URL(this.settings.issuer);
    this.configuration ??= oidc
      .discovery(issuer, this.settings.clientId, this.settings.clientSecret, undefined, {
        [oidc.customFetch]: this.fetchThroughProvider,
        ...(allowsInsecureIssuer(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((error: Error) => {
        this.configuration = null; // try again on the next sign-in
        throw serviceUnavailable(`Identity provider unreachable: ${error.message}`);
      });
    return this.configuration;
  }

  async start(): Promise<{ url: string; pending: PendingSignIn }> {
    const configuration = await this.discover();
    const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, pending };
  }

  /** Completes the grant for the URL the browser came back to; throws when anything does not match. */
  async finish(currentUrl: URL, pending: PendingSignIn): Promise<OidcClaims> {
    const configuration = await this.discover();
    const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    const claims = typeof idClaims.email === 'string' ? idClaims : await oidc.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    if (typeof claims.email !== 'string' || claims.email === '') throw new Error('the provider gave no e-mail');
    // Only an address the provider vouches for may name an administrator (ADMIN_EMAILS).
    if (claims.email_verified === undefined && !this.settings.allowMissingEmailVerified) throw new Error('the provider did not say the e-mail is verified');
    if (claims.email_verified !== undefined && claims.email_verified !== true) throw new Error('the e-mail is not verified');
    const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
    return {
      issuer: idClaims.iss,
      subject: idClaims.sub,
      email: claims.email.toLowerCase(),
      firstName: text(claims.given_name),
      lastName: text(claims.family_name),
      profileImageUrl: text(claims.picture),
    };
  }
}
