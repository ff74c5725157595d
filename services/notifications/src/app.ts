import { ServiceClient } from '@bo/platform';
import type { OutsideEffect } from '@bo/platform/events';
import { schedule } from '@bo/platform/runs';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { ManyChatClient, manyChatSystem } from './clients/manychat';
import type { NotificationsConfig } from './config';
import { notificationsConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { ChatDeliveries } from './operations/deliveries';
import { ExpiryCheck } from './operations/expiry-check';
import { ChatMessenger } from './operations/messenger';
import { registerNotificationRoutes } from './routes/notifications';
import { registerSettingsRoutes } from './routes/settings';

export interface NotificationsExposed {
  deliveries: ChatDeliveries;
  expiryCheck: ExpiryCheck;
}

/**
 * The notifications service's parts: the ManyChat client (none without a token: every message is
 * then recorded failed), the chat messages (consumers and their outside effect, held ones sent when
 * their subscriber writes), the expiry check (a run, on its cron schedule and from the page), and
 * the routes of the /manychat-admin page.
 */
export async function buildNotificationsApp({ config, signer, prisma, outbox, effects, outside, runs }: ServiceContext<NotificationsConfig, PrismaClient>): Promise<ServiceParts<NotificationsExposed>> {
  const manychat = config.MANYCHAT_API_TOKEN
    ? new ManyChatClient(outside(manyChatSystem({ baseUrl: config.MANYCHAT_API_URL, timeoutMs: config.MANYCHAT_TIMEOUT_MS })), config.MANYCHAT_API_TOKEN)
    : null;
  const messenger = new ChatMessenger(manychat, prisma);
  const streamingKeys = new ServiceClient({ baseUrl: config.STREAMING_KEYS_URL, signer });
  const deliveries = new ChatDeliveries({ prisma, outbox, effects, messenger, streamingKeys });
  const expiryCheck = new ExpiryCheck({ prisma, messenger, deliveries, streamingKeys });
  return {
    routes(app) {
      registerSettingsRoutes(app, { prisma, config, manychat, deliveries });
      registerNotificationRoutes(app, { prisma, deliveries, expiryCheck, runs });
    },
    runs: [expiryCheck.kind],
    schedules: [schedule('expiry-check', config.EXPIRY_CHECK_CRON, expiryCheck.kind)],
    consumers: deliveries.consumers(),
    outsideEffects: [deliveries.effect as OutsideEffect<never>],
    configItems: () => notificationsConfigItems(config),
    exposed: { deliveries, expiryCheck },
  };
}
