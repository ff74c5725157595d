import type { FastifyInstance } from 'fastify';
import { badRequest, serveRoute, type SecretBox } from '@bo/platform';
import { getQpaySettings, revealWebhookSecret, rotateWebhookSecret, saveQpaySettings } from '@bo/proto';
import { settingsStore } from '../store/settings-store';
import type { PaymentsRouteDeps } from './deps';

/** The /qpay Settings tab: the secrets are sealed when saved and never sent back in a GET. */
export function registerSettingsRoutes(app: FastifyInstance, { prisma, qpay, webhookSecret }: PaymentsRouteDeps, secrets: SecretBox): void {
  serveRoute(app, getQpaySettings, async () => qpay.view(await qpay.settings()));

  // The whole webhook secret only in a POST's reply, for the Copy button: never cached, never logged.
  serveRoute(app, revealWebhookSecret, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { secret: await webhookSecret.current() };
  });

  serveRoute(app, rotateWebhookSecret, async () => {
    await webhookSecret.rotate();
    return { success: true, settings: qpay.view(await qpay.settings()) };
  });

  serveRoute(app, saveQpaySettings, async ({ body }) => {
    const current = await qpay.settings();
    const currentView = qpay.view(current);
    // Blank, or the masked value sent back as it was shown, keeps the stored secret.
    const newSecret = body.qpayClientSecret && body.qpayClientSecret !== currentView.qpayClientSecret ? body.qpayClientSecret : undefined;
    if (body.enabled && (!body.qpayClientId || !(newSecret || currentView.qpayClientSecretSet) || !body.qpayInvoiceCode)) {
      throw badRequest('To enable QPay, fill in the client id, client secret and invoice code');
    }
    const saved = await settingsStore.save(prisma, {
      qpayClientId: body.qpayClientId,
      qpayInvoiceCode: body.qpayInvoiceCode,
      qpayCallbackUrl: (body.qpayCallbackUrl ?? '').replace(/\/+$/, ''),
      qpayEnvironment: body.qpayEnvironment,
      enabled: body.enabled,
      ...(newSecret ? { sealedSecret: secrets.seal(newSecret) } : {}),
    });
    return { success: true, settings: qpay.view(saved) };
  });
}
