import { SecretBox } from '@bo/platform';
import type { LogRetentionJob, ServiceContext, ServiceParts } from '@bo/platform/service';
import { paymentsConfigItems } from './config-status';
import type { PaymentsConfig } from './config';
import type { PrismaClient } from './generated/prisma/client';
import { InvoiceDesk } from './operations/invoice-desk';
import { QpayConnection } from './operations/qpay-connection';
import { reconciliationJob } from './operations/reconcile';
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
  reconciliation: ReturnType<typeof reconciliationJob>;
  logRetention: LogRetentionJob;
}

/**
 * The payments service's parts: the QPay connection from the settings (seeded from the
 * environment on a fresh database), the invoice desk (create, check, the one paid transition,
 * cancel), the reconciliation job, the callback log's 30-day retention and the routes.
 */
export async function buildPaymentsApp({ config, logger, prisma, outbox, infrastructure }: ServiceContext<PaymentsConfig, PrismaClient>): Promise<ServiceParts<PaymentsExposed>> {
  const secrets = new SecretBox(config.DATA_ENCRYPTION_KEY);
  const qpay = new QpayConnection({ prisma, config, secrets });
  await qpay.seedFromEnvironment();
  const desk = new InvoiceDesk({ prisma, outbox, qpay, lock: infrastructure.lock, config, logger });
  const reconciliation = reconciliationJob({ prisma, desk, everyMs: config.RECONCILE_EVERY_MS, logger });
  const logRetention = webhookLogRetention(prisma);
  const deps = { prisma, desk, qpay, config };
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
    jobs: [reconciliation, logRetention],
    configItems: () => paymentsConfigItems(config, qpay),
    exposed: { desk, qpay, reconciliation, logRetention },
  };
}
