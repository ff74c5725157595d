import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import Provider, { type Configuration } from 'oidc-provider';
import { simulatorMemoryAdapter } from './memory-adapter';

export interface OidcClientOptions {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  /** openid-client v6 sends the secret in the form body when given a plain secret string. */
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
}

/** A person who signed in: the e-mail is the account id. */
export interface Person {
  email: string;
  givenName?: string;
  familyName?: string;
}

/**
 * Test switches for the ID tokens this provider issues, so a relying party's refusals can be
 * proven: the e-mail's verification claim, and a token with a foreign nonce, past expiry or another
 * issuer (re-signed with the provider's own key, so only the named claim is wrong).
 */
export interface IdTokenTweaks {
  emailVerified: 'true' | 'false' | 'missing';
  wrongNonce: boolean;
  expired: boolean;
  issuer?: string;
}

export const defaultTweaks = (): IdTokenTweaks => ({ emailVerified: 'true', wrongNonce: false, expired: false });

/** Whether a token response needs rewriting under these tweaks. */
export const rewritesIdToken = (tweaks: IdTokenTweaks) => tweaks.wrongNonce || tweaks.expired || tweaks.issuer !== undefined;

/** The compact JWS with its claims changed as the tweaks say, signed again with the same key (RS256). */
export function tweakIdToken(idToken: string, tweaks: IdTokenTweaks, key: KeyObject): string {
  const [header, payload] = idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const now = Math.floor(Date.now() / 1000);
  if (tweaks.wrongNonce) claims.nonce = 'a-nonce-this-client-never-sent';
  if (tweaks.expired) Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  if (tweaks.issuer !== undefined) claims.iss = tweaks.issuer;
  const signingInput = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${signingInput}.${sign('sha256', Buffer.from(signingInput), key).toString('base64url')}`;
}

/** Splits "Bat Dorj" into given and family name, as a profile would hold them. */
export function personFrom(email: string, name?: string): Person {
  const [givenName, ...rest] = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { email: email.trim().toLowerCase(), givenName, familyName: rest.length ? rest.join(' ') : undefined };
}

/**
 * The OP: code flow with PKCE always required, `openid email profile`, profile claims in the
 * id_token, and consent skipped because the one client is our own back-office.
 */
export function createProvider(issuer: string, client: OidcClientOptions, people: Map<string, Person>, tweaks: () => IdTokenTweaks): { provider: Provider; signingKey: KeyObject } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const configuration: Configuration = {
    clients: [{ token_endpoint_auth_method: 'client_secret_post', ...client, grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'sim-signing-key', use: 'sig', alg: 'RS256' } as never] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // Seconds; set so the provider does not warn about its defaults.
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 86_400, Grant: 86_400 },
    features: { devInteractions: { enabled: false } },
    adapter: simulatorMemoryAdapter(),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const person = people.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: person.email,
          ...(tweaks().emailVerified === 'missing' ? {} : { email_verified: tweaks().emailVerified === 'true' }),
          ...(person.givenName ? { given_name: person.givenName, name: [person.givenName, person.familyName].filter(Boolean).join(' ') } : {}),
          ...(person.familyName ? { family_name: person.familyName } : {}),
        }),
      };
    },
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  return { provider: new Provider(issuer, configuration), signingKey: privateKey };
}
