import { SecretBox } from '@bo/platform';
import { attemptCounterFor } from '@bo/platform/cache';
import type { LogRetention, ServiceContext, ServiceParts } from '@bo/platform/service';
import { PriceLists } from './clients/price-lists';
import { paymentsConfigItems } from './config-status';
import type { PaymentsConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';
import { DoorLimits } from './operations/door-limits';
import { InvoiceDesk } from './operations/invoice-desk';
import { QpayConnection } from './operations/qpay-connection';
import { reconciliation as reconciliationOf } from './operations/reconcile';
import { WebhookSecret } from './operations/webhook-secret';
import { registerAdminInvoiceRoutes } from './routes/admin-invoices';
import { registerCallbackRoutes } from './routes/callbacks';
import { registerChatWebhookRoutes } from './routes/chat-webhook';
import { registerInternalRoutes } from './routes/internal';
import { registerInvoiceRoutes } from './routes/invoices';
import { registerLogRoutes } from './routes/logs';
import { registerSettingsRoutes } from './routes/settings';
import { webhookLogRetention } from './store/invoice-store';

export interface PaymentsExposed {
  desk: InvoiceDesk;
  qpay: QpayConnection;
  reconciliation: ReturnType<typeof reconciliationOf>;
  /** The chat webhook's secret: the embedded launcher reads it and follows its rotations (the ManyChat simulator's header). */
  webhookSecret: WebhookSecret;
  logRetention: LogRetention;
}

/**
 * The payments service's parts: the QPay connection from the settings (seeded from the
 * environment on a fresh database), the invoice desk (create, check, the one paid transition,
 * cancel), the reconciliation job, the callback log's 30-day retention and the routes.
 */
export async function buildPaymentsApp({ config, logger, signer, prisma, outbox, infrastructure, outside }: ServiceContext<PaymentsConfig, PrismaClient>): Promise<ServiceParts<PaymentsExposed>> {
  const secrets = SecretBox.fromConfig(config);
  const qpay = new QpayConnection({ prisma, config, secrets, outside });
  await qpay.seedFromEnvironment();
  const webhookSecret = new WebhookSecret({ prisma, secrets, config });
  await webhookSecret.seed();
  const desk = new InvoiceDesk({ prisma, outbox, qpay, lock: infrastructure.lock, config, logger });
  const reconciliation = reconciliationOf({ prisma, desk, everyMs: config.RECONCILE_EVERY_MS, logger });
  const logRetention = webhookLogRetention(prisma);
  const deps = {
    prisma,
    desk,
    qpay,
    config,
    webhookSecret,
    // Counted in Redis when distributed, so the limits hold however many replicas serve the doors.
    limits: new DoorLimits(attemptCounterFor(infrastructure.cache, 'doors:')),
    prices: new PriceLists({ streamingKeysUrl: config.STREAMING_KEYS_URL, pricingUrl: config.PRICING_URL, signer }),
    lock: infrastructure.lock,
  };
  return {
    routes(app) {
      registerInvoiceRoutes(app, deps);
      registerAdminInvoiceRoutes(app, deps);
      registerCallbackRoutes(app, deps);
      registerChatWebhookRoutes(app, deps);
      registerSettingsRoutes(app, deps, secrets);
      registerLogRoutes(app, deps);
      registerInternalRoutes(app, deps);
    },
    schedules: [reconciliation.schedule, logRetention.schedule],
    configItems: () => paymentsConfigItems(config, qpay, secrets),
    // QPay's API secret and the webhook secret stay behind: an admin enters them again where the file is imported.
    dataExport: { leaveOut: { qpay_settings: ['qpay_client_secret', 'webhook_secret'] } },
    exposed: { desk, qpay, reconciliation, webhookSecret, logRetention },
  };
}
