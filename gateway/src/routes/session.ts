import { unauthorized } from '@bo/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { guarded } from '../plugins/access';
import { sessionCookieName } from '../plugins/sessions';
import type { AccountsStore } from '../store/accounts-store';

export const LOCAL_ADMIN_PREFIX = 'local:';

/** Ends the browser's session: the row is deleted and the cookie cleared. */
export async function endSession(request: FastifyRequest, reply: FastifyReply, config: GatewayConfig): Promise<void> {
  if (request.session?.sessionId) await request.session.destroy();
  reply.clearCookie(sessionCookieName(config), { path: '/' });
}

/** The current user, the CSRF token, and logout by full-page navigation. */
export function registerSessionRoutes(app: FastifyInstance, deps: { config: GatewayConfig; accounts: AccountsStore }): void {
  app.get('/api/auth/user', guarded('public'), async (request, reply) => {
    const auth = request.session?.auth;
    if (!auth) throw unauthorized('Unauthorized');
    if (auth.method === 'password') {
      const admin = await deps.accounts.findLocalAdminById(auth.userId.slice(LOCAL_ADMIN_PREFIX.length));
      if (!admin || admin.disabledAt) return endAndRefuse(request, reply, deps.config);
      return { id: auth.userId, username: admin.username, email: null, firstName: admin.username, lastName: null, profileImageUrl: null, isAdmin: true };
    }
    const user = await deps.accounts.findUser(auth.userId);
    if (!user || user.disabledAt) return endAndRefuse(request, reply, deps.config);
    const { disabledAt: _disabled, ...visible } = user;
    return visible;
  });

  /** The web app sends this back as x-csrf-token on every state-changing call. */
  app.get('/api/auth/csrf', guarded('public'), async (_request, reply) => ({ token: reply.generateCsrf() }));

  app.get('/api/logout', guarded('public'), async (request, reply) => {
    await endSession(request, reply, deps.config);
    return reply.redirect('/login');
  });
}

async function endAndRefuse(request: FastifyRequest, reply: FastifyReply, config: GatewayConfig): Promise<never> {
  await endSession(request, reply, config);
  throw unauthorized('Unauthorized');
}
