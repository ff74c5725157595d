import type { FastifyInstance } from 'fastify';
import { serveRoute } from '@bo/platform';
import { expiryReport } from '@bo/proto';
import { daysFromNow } from '../domain/keys';
import { keyStore, keyView } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/** The Expiry Report dialog: reminders of keys about to expire, counted by outcome (null: pending). */
export function registerReportRoutes(app: FastifyInstance, { prisma }: StreamingKeysRouteDeps): void {
  serveRoute(app, expiryReport, async ({ query }) => {
    const now = new Date();
    const keys = (await keyStore.heldExpiringBy(prisma, now, daysFromNow(query.days, now))).map((key) => keyView(key, now));
    const count = (status: string | null) => keys.filter((key) => key.notificationStatus === status).length;
    return {
      total: keys.length,
      sent: count('sent'),
      failed: count('failed'),
      optedOut: count('opted_out'),
      held: count('held'),
      pending: count(null),
      keys: keys.map(({ id, serviceName, email, key, expiresAt, notificationStatus, notificationError, notificationAttempts }) => ({ id, serviceName, email, key, expiresAt, notificationStatus, notificationError, notificationAttempts })),
    };
  });
}
