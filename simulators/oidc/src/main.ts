import { listen } from '@bo/sim-kit';
import { buildOidcSimulator } from './app';

// Runs the OpenID Connect provider alone; the client defaults match a gateway on port 5000.
const port = Number(process.env.PORT ?? 4320);
const issuer = process.env.ISSUER_URL ?? `http://127.0.0.1:${port}`;
const { simulator } = buildOidcSimulator({
  issuer,
  client: {
    client_id: process.env.OIDC_CLIENT_ID ?? 'backoffice',
    client_secret: process.env.OIDC_CLIENT_SECRET ?? 'backoffice-secret',
    redirect_uris: (process.env.OIDC_REDIRECT_URIS ?? 'http://localhost:5000/api/callback').split(','),
  },
  logger: true,
});
await listen(simulator.app, port);
console.log(`OpenID Connect provider simulator at ${issuer} (page ${issuer}/__sim/)`);
