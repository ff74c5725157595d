import type { FastifyInstance } from 'fastify';
import { AppError, serveRoute, serviceUnavailable } from '@bo/platform';
import { startedByOf, type Runs } from '@bo/platform/runs';
import { listDeliveries, listManyChatTemplates, runRowId, sendTestNotification, triggerExpiryCheck, type ExpiryCheckCounts } from '@bo/proto';
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
  runs: Runs;
}

/**
 * The page's button waits this long, in all, for a check with other settings to end and for its own
 * run's counts; a longer check goes on and Background work follows it.
 */
const EXPIRY_REPLY_WAIT_MS = 25_000;

/** The Notifications tab: the manual expiry check, the templates, the test message, and what was sent. */
export function registerNotificationRoutes(app: FastifyInstance, { prisma, deliveries, expiryCheck, runs }: NotificationRouteDeps): void {
  serveRoute(app, triggerExpiryCheck, async ({ identity }) => {
    const deadline = Date.now() + EXPIRY_REPLY_WAIT_MS;
    // The settings as they are now are the check's: a check already going with the same ones (the
    // hourly one, or another press) is joined, one started with others is waited for, then this one's starts.
    const input = await expiryCheck.settingsNow();
    const { run, joined } = await runs.press(expiryCheck.kind, { input, startedBy: startedByOf(identity), waitMs: EXPIRY_REPLY_WAIT_MS }).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 409 && (error.details as { activeRunId?: string } | undefined)?.activeRunId) {
        throw new AppError(409, 'conflict', 'An expiry check started with other settings is still running (Background work follows it): run the check again once it has ended', error.details);
      }
      throw error;
    });
    const ended = await runs.waitFor(runRowId(run.id), Math.max(0, deadline - Date.now()), 100);
    if (ended.status === 'failed') throw new AppError(502, 'expiry_check_failed', ended.lastError ?? 'The expiry check failed');
    const { checked = 0, sent = 0, failed = 0, optedOut = 0, held = 0, skipped = 0 } = ended.progress.counters as Partial<ExpiryCheckCounts>;
    return { success: true, message: 'Expiry check triggered successfully', data: { checked, sent, failed, optedOut, held, skipped }, runId: run.id, joined, days: input.days };
  });

  serveRoute(app, sendTestNotification, async ({ body }) => {
    const outcome = await deliveries.sendTest(body.userId);
    if (!outcome.sent) {
      if (outcome.status === 503) throw serviceUnavailable(outcome.error);
      throw outcome.status === 409 ? new AppError(409, 'outside_window', outcome.error) : new AppError(502, 'manychat_failed', outcome.error);
    }
    return { success: true, message: 'Test notification sent', data: { userId: body.userId, service: sampleKeyDelivery.serviceName, keyId: sampleKeyDelivery.key } };
  });

  serveRoute(app, listManyChatTemplates, async () => ({ data: templatePreviews((await settingsStore.read(prisma)).expiryReminderDays) }));

  serveRoute(app, listDeliveries, async ({ query }) => ({ data: await deliveriesStore.list(prisma, query) }));
}
