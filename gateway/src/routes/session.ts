import { serveRoute, unauthorized } from '@bo/platform';
import { csrfToken, currentUser, logout } from '@bo/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { sessionCookieName } from '../plugins/sessions';
import { LOCAL_ADMIN_PREFIX, type AccountsStore } from '../store/accounts-store';

export { LOCAL_ADMIN_PREFIX } from '../store/accounts-store';

/** Ends the browser's session: the row is deleted and the cookie cleared. */
export async function endSession(request: FastifyRequest, reply: FastifyReply, config: GatewayConfig): Promise<void> {
  if (request.session?.sessionId) await request.session.destroy();
  reply.clearCookie(sessionCookieName(config), { path: '/' });
}

/**
 * Whether a navigation was started by another site: a cross-site (or sibling-site) fetch, or an
 * Origin or Referer that is not ours. A navigation without those headers (typed, bookmarked, or an
 * old client) is taken as the user's own.
 */
export function startedByAnotherSite(request: FastifyRequest, config: GatewayConfig): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const own = new URL(config.PUBLIC_URL).origin;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== own) return true;
  const referer = request.headers.referer;
  if (referer === undefined) return false;
  try {
    return new URL(referer).origin !== own;
  } catch {
    return true;
  }
}

/** The current user, the CSRF token, and logout by full-page navigation. */
export function registerSessionRoutes(app: FastifyInstance, deps: { config: GatewayConfig; accounts: AccountsStore }): void {
  serveRoute(app, currentUser, async ({ request, reply }) => {
    const auth = request.session?.auth;
    // A customer session is not a user of the dashboard; it stays as it is for the customer pages.
    if (!auth || auth.kind === 'customer') throw unauthorized('Unauthorized');
    if (auth.method === 'password') {
      const admin = await deps.accounts.findLocalAdminById(auth.userId.slice(LOCAL_ADMIN_PREFIX.length));
      if (!admin || admin.disabledAt) return endAndRefuse(request, reply, deps.config);
      return { id: auth.userId, username: admin.username, email: null, firstName: admin.username, lastName: null, profileImageUrl: null, isAdmin: true };
    }
    const user = await deps.accounts.findUser(auth.userId);
    if (!user || user.disabledAt) return endAndRefuse(request, reply, deps.config);
    // Rights as the session holds them: recomputed from ADMIN_EMAILS on every request (plugins/sessions).
    const { disabledAt: _disabled, oidcIssuer: _issuer, oidcSubject: _subject, ...visible } = user;
    return { ...visible, isAdmin: auth.isAdmin };
  });

  /**
   * The web app sends this back as x-csrf-token on every state-changing call. Only a signed-in
   * session is checked (and keeps its secret); an anonymous caller gets a token of a throw-away
   * secret, so that asking writes no session row.
   */
  serveRoute(app, csrfToken, async ({ request, reply }) => {
    const token = reply.generateCsrf();
    if (!request.session.auth) delete (request.session as { _csrf?: string })._csrf;
    return { token };
  });

  serveRoute(app, logout, async ({ request, reply }) => {
    // Another site's link or form must not sign the user out (a logout CSRF); back to the app instead.
    if (startedByAnotherSite(request, deps.config)) {
      request.log.info({ site: request.headers['sec-fetch-site'], origin: request.headers.origin }, 'cross-site logout ignored');
      await reply.redirect('/');
      return undefined;
    }
    await endSession(request, reply, deps.config);
    await reply.redirect('/login');
    return undefined;
  });
}

async function endAndRefuse(request: FastifyRequest, reply: FastifyReply, config: GatewayConfig): Promise<never> {
  await endSession(request, reply, config);
  throw unauthorized('Unauthorized');
}
