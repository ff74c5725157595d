import { createSimulator, escapeHtml, htmlTable, type Simulator } from '@bo/sim-kit';
import type Provider from 'oidc-provider';
import { createProvider, personFrom, type OidcClientOptions, type Person } from './provider';
import { signInPage } from './sign-in-page';

export type { OidcClientOptions, Person } from './provider';

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
  state: { people: Map<string, Person>; signIns: SignIn[] };
}

export function buildOidcSimulator(options: OidcSimulatorOptions): OidcSimulator {
  const simulator = createSimulator({ title: 'OpenID Connect provider', logger: options.logger });
  const state = { people: new Map<string, Person>(), signIns: [] as SignIn[] };
  const provider = createProvider(options.issuer, options.client, state.people);
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
      handleProvider(request.raw, reply.raw);
    });
  });

  simulator.onReset(() => {
    state.people.clear();
    state.signIns.length = 0;
  });
  simulator.addPageSections(() => [
    {
      title: 'Provider',
      html: `<p>Issuer <code>${escapeHtml(options.issuer)}</code> — discovery at <a href="/.well-known/openid-configuration">/.well-known/openid-configuration</a>.
        Client <code>${escapeHtml(options.client.client_id)}</code>, redirect URIs ${options.client.redirect_uris.map((u) => `<code>${escapeHtml(u)}</code>`).join(', ')}.
        Anyone who types an e-mail address is signed in as that address.</p>`,
    },
    { title: 'Sign-ins (newest first)', html: htmlTable(state.signIns as never, ['at', 'email', 'name', 'clientId']) },
  ]);
  app.get('/__sim/sign-ins', async () => ({ signIns: state.signIns }));

  return { simulator, provider, state };
}
