import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { type Configuration } from 'oidc-provider';

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

/** Splits "Bat Dorj" into given and family name, as a profile would hold them. */
export function personFrom(email: string, name?: string): Person {
  const [givenName, ...rest] = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { email: email.trim().toLowerCase(), givenName, familyName: rest.length ? rest.join(' ') : undefined };
}

/**
 * The OP: code flow with PKCE always required, `openid email profile`, profile claims in the
 * id_token, and consent skipped because the one client is our own back-office.
 */
export function createProvider(issuer: string, client: OidcClientOptions, people: Map<string, Person>): Provider {
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
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const person = people.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: person.email,
          email_verified: true,
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
  return new Provider(issuer, configuration);
}
