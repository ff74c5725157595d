import { notFound, parseInput } from '@bo/platform';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guarded } from '../plugins/access';
import type { AccountsStore } from '../store/accounts-store';
import type { PrismaSessionStore } from '../store/session-store';

const userParams = z.object({ id: z.string().min(1).max(100) });

/**
 * Operator actions on accounts, OIDC users by id and local password accounts as `local:<id>`:
 * disabling one ends its sessions at once (ASVS 7.4.2, 7.4.5).
 */
export function registerUserRoutes(app: FastifyInstance, deps: { accounts: AccountsStore; sessions: PrismaSessionStore }): void {
  app.post('/api/admin/users/:id/disable', guarded('admin'), async (request) => {
    const { id } = parseInput(userParams, request.params, 'params');
    if (!(await deps.accounts.disableAccount(id))) throw notFound('User not found');
    request.log.info({ userId: id, by: request.session.auth?.userId }, 'account disabled');
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });

  app.post('/api/admin/users/:id/terminate-sessions', guarded('admin'), async (request) => {
    const { id } = parseInput(userParams, request.params, 'params');
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });
}
