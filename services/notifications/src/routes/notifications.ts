import type { FastifyInstance } from 'fastify';
import { AppError, serveRoute, serviceUnavailable } from '@bo/platform';
import { listDeliveries, listManyChatTemplates, sendTestNotification, triggerExpiryCheck } from '@bo/proto';
import { sampleKeyDelivery, templatePreviews } from '../domain/templates';
import type { PrismaClient } from '../generated/prisma/client';
import type { ChatDeliveries } from '../operations/deliveries';
import type { ExpiryCheck } from '../operations/expiry-check';
import { deliveriesStore } from '../store/deliveries-store';
import { settingsStore } from '../store/settings-store';

export interface NotificationRouteDeps {
  prisma: PrismaClient;
  deliveries: ChatDeliveries;
  expiryCheck: ExpiryCheck;
}

/** The Notifications tab: the manual expiry check, the templates, the test message, and what was sent. */
export function registerNotificationRoutes(app: FastifyInstance, { prisma, deliveries, expiryCheck }: NotificationRouteDeps): void {
  serveRoute(app, triggerExpiryCheck, async () => ({ success: true, message: 'Expiry check triggered successfully', data: await expiryCheck.run() }));

  serveRoute(app, sendTestNotification, async ({ body }) => {
    const outcome = await deliveries.sendTest(body.userId);
    if (!outcome.sent) throw outcome.notConfigured ? serviceUnavailable(outcome.error) : new AppError(502, 'manychat_failed', outcome.error);
    return { success: true, message: 'Test notification sent', data: { userId: body.userId, service: sampleKeyDelivery.serviceName, keyId: sampleKeyDelivery.key } };
  });

  serveRoute(app, listManyChatTemplates, async () => ({ data: templatePreviews((await settingsStore.read(prisma)).expiryReminderDays) }));

  serveRoute(app, listDeliveries, async ({ query }) => ({ data: await deliveriesStore.list(prisma, query) }));
}
