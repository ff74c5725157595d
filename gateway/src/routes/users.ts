import { notFound, serveRoute } from '@bo/platform';
import { disableUser, terminateSessions } from '@bo/proto';
import type { FastifyInstance } from 'fastify';
import type { AccountsStore } from '../store/accounts-store';
import type { PrismaSessionStore } from '../store/session-store';

/**
 * Operator actions on accounts, OIDC users by id and local password accounts as `local:<id>`:
 * disabling one ends its sessions at once (ASVS 7.4.2, 7.4.5).
 */
export function registerUserRoutes(app: FastifyInstance, deps: { accounts: AccountsStore; sessions: PrismaSessionStore }): void {
  serveRoute(app, disableUser, async ({ params: { id }, request }) => {
    if (!(await deps.accounts.disableAccount(id))) throw notFound('User not found');
    request.log.info({ userId: id, by: request.session.auth?.userId }, 'account disabled');
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });

  serveRoute(app, terminateSessions, async ({ params: { id } }) => {
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });
}
