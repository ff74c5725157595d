import type { ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import { createSimulator, escapeHtml, htmlTable, type Simulator } from '@bo/sim-kit';
import type Provider from 'oidc-provider';
import { createProvider, defaultTweaks, personFrom, rewritesIdToken, tweakIdToken, type IdTokenTweaks, type OidcClientOptions, type Person } from './provider';
import { signInPage } from './sign-in-page';

export type { IdTokenTweaks, OidcClientOptions, Person } from './provider';

/** POST /__sim/id-token: what the next ID tokens should get wrong (every field optional); the names of bad fields. */
function badTweakFields(body: Record<string, unknown>): string[] {
  const valid: Record<string, (value: unknown) => boolean> = {
    emailVerified: (v) => v === 'true' || v === 'false' || v === 'missing',
    wrongNonce: (v) => typeof v === 'boolean',
    expired: (v) => typeof v === 'boolean',
    issuer: (v) => typeof v === 'string' && URL.canParse(v),
  };
  return Object.entries(body).filter(([field, value]) => !valid[field]?.(value)).map(([field]) => field);
}

export interface OidcSimulatorOptions {
  /** Where the OP is reached, e.g. http://127.0.0.1:4320 (plain http is fine for this local issuer). */
  issuer: string;
  client: OidcClientOptions;
  logger?: boolean;
}

export interface SignIn {
  at: string;
  email: string;
  name?: string;
  clientId: string;
}

export interface OidcSimulator {
  simulator: Simulator;
  provider: Provider;
  /** People who signed in, keyed by e-mail (their account id), and every sign-in made. */
  state: { people: Map<string, Person>; signIns: SignIn[]; tweaks: IdTokenTweaks };
}

export function buildOidcSimulator(options: OidcSimulatorOptions): OidcSimulator {
  const simulator = createSimulator({ title: 'OpenID Connect provider', logger: options.logger });
  const state = { people: new Map<string, Person>(), signIns: [] as SignIn[], tweaks: defaultTweaks() };
  const { provider, signingKey } = createProvider(options.issuer, options.client, state.people, () => state.tweaks);
  const { app } = simulator;

  // The sign-in form posts an HTML form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get<{ Params: { uid: string } }>('/interaction/:uid', async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    return reply.type('text/html').send(signInPage(details.uid, String(details.params.client_id ?? '')));
  });

  app.post<{ Params: { uid: string }; Body: { email?: string; name?: string } }>('/interaction/:uid', async (request, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    const email = String(request.body?.email ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
      return reply.code(400).type('text/html').send(signInPage(details.uid, String(details.params.client_id ?? ''), 'Enter a valid e-mail address.'));
    }
    const person = personFrom(email, request.body?.name);
    state.people.set(person.email, person);
    state.signIns.unshift({ at: new Date().toISOString(), email: person.email, name: request.body?.name || undefined, clientId: String(details.params.client_id ?? '') });
    const redirectTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId: person.email } }, { mergeWithLastSubmission: false });
    return reply.redirect(redirectTo, 303);
  });

  // Everything else that is not /__sim/ is the provider itself (discovery, auth, token, jwks, userinfo).
  const handleProvider = provider.callback();
  app.register(async (scope) => {
    // The provider reads request bodies itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    scope.all('/*', (request, reply) => {
      reply.hijack();
      if (request.method === 'POST' && request.url.split('?')[0] === '/token' && rewritesIdToken(state.tweaks)) rewriteTokenResponse(reply.raw, state.tweaks, signingKey);
      handleProvider(request.raw, reply.raw);
    });
  });

  app.get('/__sim/id-token', async () => ({ tweaks: state.tweaks }));
  app.post('/__sim/id-token', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return reply.code(400).send({ error: 'the body must be a JSON object' });
    const bad = badTweakFields(body as Record<string, unknown>);
    if (bad.length) return reply.code(400).send({ error: `invalid ID token switches: ${bad.join(', ')}`, details: { fields: bad } });
    state.tweaks = { ...state.tweaks, ...(body as Partial<IdTokenTweaks>) };
    return { tweaks: state.tweaks };
  });
  app.delete('/__sim/id-token', async () => {
    state.tweaks = defaultTweaks();
    return { tweaks: state.tweaks };
  });

  simulator.onReset(() => {
    state.people.clear();
    state.signIns.length = 0;
    state.tweaks = defaultTweaks();
  });
  simulator.addPageSections(() => [
    {
      title: 'Provider',
      html: `<p>Issuer <code>${escapeHtml(options.issuer)}</code> — discovery at <a href="/.well-known/openid-configuration">/.well-known/openid-configuration</a>.
        Client <code>${escapeHtml(options.client.client_id)}</code>, redirect URIs ${options.client.redirect_uris.map((u) => `<code>${escapeHtml(u)}</code>`).join(', ')}.
        Anyone who types an e-mail address is signed in as that address.</p>`,
    },
    {
      title: 'ID token switches',
      html: `<p>Set with <code>POST /__sim/id-token</code> <code>{"emailVerified":"true|false|missing","wrongNonce":true,"expired":true,"issuer":"https://other.example"}</code>, cleared with <code>DELETE</code>.
        Now: <code>${escapeHtml(JSON.stringify(state.tweaks))}</code></p>`,
    },
    { title: 'Sign-ins (newest first)', html: htmlTable(state.signIns as never, ['at', 'email', 'name', 'clientId']) },
  ]);
  app.get('/__sim/sign-ins', async () => ({ signIns: state.signIns }));

  return { simulator, provider, state };
}

/** Re-signs the id_token of the token endpoint's JSON answer as the switches say, before it leaves. */
function rewriteTokenResponse(res: ServerResponse, tweaks: IdTokenTweaks, key: KeyObject): void {
  const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
  res.end = ((body?: unknown) => {
    if (res.statusCode !== 200 || (typeof body !== 'string' && !Buffer.isBuffer(body))) return end(body);
    const answer = JSON.parse(body.toString()) as { id_token?: string };
    if (!answer.id_token) return end(body);
    const rewritten = JSON.stringify({ ...answer, id_token: tweakIdToken(answer.id_token, tweaks, key) });
    if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(rewritten));
    return end(rewritten);
  }) as typeof res.end;
}
