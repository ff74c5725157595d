import type { FastifyInstance } from 'fastify';
import { isSimulatorUrl, serveRoute } from '@bo/platform';
import { BASE_URL_WARNING, getManyChatSettings, PAYMENT_STATUS_LINE, templateKinds, templateSettingKey, updateManyChatSetting } from '@bo/proto';
import { templateVariables } from '../domain/templates';
import type { ManyChatClient } from '../clients/manychat';
import type { NotificationsConfig } from '../config';
import type { PrismaClient } from '../generated/prisma/client';
import type { ChatDeliveries } from '../operations/deliveries';
import { settingsStore } from '../store/settings-store';

export interface SettingsRouteDeps {
  prisma: PrismaClient;
  config: NotificationsConfig;
  manychat: ManyChatClient | null;
  deliveries: ChatDeliveries;
}

/** The Settings tab: expiry_reminder_days, base_url and alert_subscriber_id, and the API status card; the Notifications tab's utility templates. */
export function registerSettingsRoutes(app: FastifyInstance, { prisma, config, manychat, deliveries }: SettingsRouteDeps): void {
  serveRoute(app, getManyChatSettings, async () => {
    const settings = await settingsStore.read(prisma);
    return {
      expiry_reminder_days: settings.expiryReminderDays,
      base_url: settings.baseUrl,
      warning: settings.baseUrl ? null : BASE_URL_WARNING,
      alert_subscriber_id: settings.alertSubscriberId,
      status: { apiConfigured: manychat !== null, simulated: isSimulatorUrl(config.MANYCHAT_API_URL), ...(await pageStatus(manychat)), payment: PAYMENT_STATUS_LINE },
      utility_templates: templateKinds.map((kind) => ({ kind, name: settings.templates[kind], variables: [...templateVariables[kind]] })),
    };
  });

  serveRoute(app, updateManyChatSetting, async ({ body }) => {
    // A template named for a kind: what was held for want of one (or refused under the old name) goes out through it now.
    const kind = templateKinds.find((one) => templateSettingKey(one) === body.key);
    if (kind) await deliveries.templateSaved(kind, String(body.value));
    else await settingsStore.write(prisma, body.key, body.value);
    return { success: true, message: 'Settings updated successfully', data: body };
  });
}

/** Whether ManyChat takes the token, and the page's name (one short call; the card must not hang on it). */
async function pageStatus(manychat: ManyChatClient | null) {
  if (!manychat) return { connected: null, pageName: null, error: null };
  try {
    const page = await manychat.getInfo();
    return { connected: true, pageName: page.name || null, error: null };
  } catch (error) {
    return { connected: false, pageName: null, error: (error as Error).message };
  }
}
