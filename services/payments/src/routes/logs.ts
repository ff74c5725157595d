import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { qpayLogs } from '@bo/proto';
import { logStore, logView } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

export function registerLogRoutes(app: FastifyInstance, { prisma }: PaymentsRouteDeps): void {
  serveRoute(app, qpayLogs, async ({ query }) => ({ data: (await logStore.recent(prisma, query.limit)).map(logView) }));
}
