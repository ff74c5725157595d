import { SecretBox } from '@bo/platform';
import { attemptCounterFor } from '@bo/platform/cache';
import { logRetention as logRetentionOf, type LogRetention, type ServiceContext, type ServiceParts } from '@bo/platform/service';
import { schemaOf } from '@bo/proto';
import { AiChatClient } from './clients/ai-chat';
import { MailboxReader } from './clients/mailbox';
import { PaymentsClient } from './clients/payments';
import type { StreamingKeysConfig } from './config';
import { streamingKeysConfigItems } from './config-status';
import { streamingKeysAlertRules } from './alerts';
import type { PrismaClient } from './generated/prisma/client';
import { CodeFetch } from './operations/code-fetch';
import { FetchLimits } from './operations/fetch-limits';
import { paidOrderConsumer, reminderConsumer } from './operations/consumers';
import { KeyPool } from './operations/key-pool';
import { Orders } from './operations/orders';
import { Renewals } from './operations/renewals';
import { registerAccountRoutes } from './routes/accounts';
import { registerCustomerRoutes } from './routes/customer';
import { registerInternalRoutes } from './routes/internal';
import { registerInvoiceRoutes } from './routes/invoices';
import { registerKeyRoutes } from './routes/keys';
import { registerPricingRoutes } from './routes/pricing';
import { registerRenewalRoutes } from './routes/renewals';
import { registerReportRoutes } from './routes/reports';

export interface StreamingKeysExposed {
  pool: KeyPool;
  renewals: Renewals;
  logRetention: LogRetention;
}

/**
 * The streaming-keys service's parts: the key pool (accounts with sealed passwords), orders and
 * renewals made through payments, the consumers that turn a paid invoice into a key or a
 * renewal and fold reminder outcomes into the keys, customers' code fetch from their account's
 * mailbox (ADR 15), and the routes.
 */
export async function buildStreamingKeysApp({ config, logger, signer, prisma, outbox, infrastructure }: ServiceContext<StreamingKeysConfig, PrismaClient>): Promise<ServiceParts<StreamingKeysExposed>> {
  const secrets = SecretBox.fromConfig(config);
  const payments = new PaymentsClient({ baseUrl: config.PAYMENTS_URL, signer });
  const pool = new KeyPool({ prisma, secrets });
  const orders = new Orders({ prisma, payments });
  const renewals = new Renewals({ prisma, payments });
  const fetchLimits = new FetchLimits({
    counter: attemptCounterFor(infrastructure.cache, 'customer-limits:'),
    cache: infrastructure.cache,
    settings: { keyIntervalMs: config.CODE_FETCH_KEY_INTERVAL_MS, pauseMs: config.MAILBOX_PAUSE_MS },
  });
  const codeFetch = new CodeFetch({
    prisma,
    pool,
    mailbox: config.MAILBOX_IMAP_URL ? new MailboxReader({ url: config.MAILBOX_IMAP_URL, timeoutMs: config.MAILBOX_TIMEOUT_MS, logger }) : null,
    aiChat: config.AI_CHAT_URL ? new AiChatClient({ baseUrl: config.AI_CHAT_URL, signer }) : null,
    limits: fetchLimits,
    logger,
  });
  // Every fetch, refused ones too, is a row of the fetch log: it keeps 30 days.
  const logRetention = logRetentionOf({ db: prisma, schema: schemaOf('streaming-keys'), tables: [{ table: 'code_fetches', column: 'created_at' }] });
  const deps = { prisma, outbox, secrets, pool, orders, renewals, codeFetch, fetchLimits, payments, lock: infrastructure.lock };
  return {
    routes(app) {
      registerKeyRoutes(app, deps);
      registerReportRoutes(app, deps);
      registerPricingRoutes(app, deps);
      registerInvoiceRoutes(app, deps);
      registerAccountRoutes(app, deps);
      registerRenewalRoutes(app, deps);
      registerInternalRoutes(app, deps);
      registerCustomerRoutes(app, deps);
      for (const metric of codeFetch.metrics) app.metrics.registry.registerMetric(metric);
    },
    consumers: [paidOrderConsumer(outbox, logger), reminderConsumer()],
    schedules: [logRetention.schedule],
    alerts: streamingKeysAlertRules({ prisma, lowFreeSlots: config.LOW_FREE_SLOTS_THRESHOLD }),
    configItems: () => streamingKeysConfigItems(config, secrets),
    exposed: { pool, renewals, logRetention },
  };
}
