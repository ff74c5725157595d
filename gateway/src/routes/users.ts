import { notFound, parseInput } from '@bo/platform';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guarded } from '../plugins/access';
import type { AccountsStore } from '../store/accounts-store';
import type { PrismaSessionStore } from '../store/session-store';

const userParams = z.object({ id: z.string().min(1).max(100) });

/** Operator actions on admin accounts: disabling one ends its sessions at once (ASVS 7.4.2, 7.4.5). */
export function registerUserRoutes(app: FastifyInstance, deps: { accounts: AccountsStore; sessions: PrismaSessionStore }): void {
  app.post('/api/admin/users/:id/disable', guarded('admin'), async (request) => {
    const { id } = parseInput(userParams, request.params, 'params');
    if (!(await deps.accounts.disableUser(id))) throw notFound('User not found');
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });

  app.post('/api/admin/users/:id/terminate-sessions', guarded('admin'), async (request) => {
    const { id } = parseInput(userParams, request.params, 'params');
    return { success: true, sessionsEnded: await deps.sessions.destroyForUser(id) };
  });
}
