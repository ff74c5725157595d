import { AppError, forbidden, serveRoute, serviceUnavailable } from '@bo/platform';
import { oidcCallback, oidcLogin } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { OidcClient } from '../clients/oidc';
import type { GatewayConfig } from '../config';
import { requestClientAddress } from '../domain/client-address';
import type { LoginLimiter } from '../domain/login-limiter';
import { beginSignedInSession } from '../plugins/sessions';
import type { AccountsStore } from '../store/accounts-store';

export interface OidcLoginDeps {
  config: GatewayConfig;
  oidc: OidcClient | null;
  accounts: AccountsStore;
  limiter: LoginLimiter;
}

/** Admin sign-in by browser redirect: /api/login → provider → /api/callback → '/'. */
export function registerOidcLoginRoutes(app: FastifyInstance, deps: OidcLoginDeps): void {
  const client = () => {
    if (!deps.oidc) throw serviceUnavailable('OpenID Connect sign-in is not configured (OIDC_ISSUER_URL, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)');
    return deps.oidc;
  };

  serveRoute(app, oidcLogin, async ({ request, reply }) => {
    await deps.limiter.hitRedirect(requestClientAddress(request, deps.config.TRUST_PROXY));
    const { url, pending } = await client().start();
    const now = Date.now();
    // The pre-login session holds the transaction; it expires like any session (30 minutes idle).
    Object.assign(request.session, { oidc: pending, createdAt: request.session.createdAt ?? now, lastSeenAt: now });
    await reply.redirect(url);
    return undefined;
  });

  serveRoute(app, oidcCallback, async ({ request, reply }) => {
    await deps.limiter.hitRedirect(requestClientAddress(request, deps.config.TRUST_PROXY));
    const pending = request.session.oidc;
    if (!pending) throw new AppError(400, 'sign_in_expired', 'No sign-in in progress in this browser. Start again at /api/login.');
    // First use consumes the pre-login session, whatever the outcome: its row is deleted, and a
    // refused sign-in leaves this browser with no session at all.
    await request.session.regenerate();
    const claims = await client()
      .finish(new URL(request.url, deps.config.PUBLIC_URL), pending)
      .catch((error: Error) => {
        if (error instanceof AppError) throw error;
        request.log.warn({ err: error }, 'OIDC sign-in refused');
        // openid-client's own message is generic ("unexpected JWT claim value encountered"); its cause names the claim.
        const reason = error.cause instanceof Error ? error.cause.message : error.message;
        throw new AppError(401, 'sign_in_failed', `Sign-in failed: ${reason}`);
      });
    const user = await deps.accounts.signInOidcUser({ ...claims, isAdmin: deps.config.ADMIN_EMAILS.includes(claims.email) });
    if (!user) {
      request.log.warn({ issuer: claims.issuer, subject: claims.subject }, 'OIDC sign-in refused: the e-mail belongs to another subject');
      throw forbidden('This e-mail address belongs to another account');
    }
    if (user.disabledAt) throw forbidden('This account is disabled');
    request.log.info({ userId: user.id, isAdmin: user.isAdmin }, 'admin sign-in (OIDC)');
    await beginSignedInSession(request, { kind: user.isAdmin ? 'admin' : 'user', userId: user.id, email: user.email, isAdmin: user.isAdmin, method: 'oidc' });
    await reply.redirect('/');
    return undefined;
  });
}
