import type { Lock } from '@bo/platform/cache';
import type { PriceLists } from '../clients/price-lists';
import type { PaymentsConfig } from '../config';
import type { PrismaClient } from '../generated/prisma/client';
import type { DoorLimits } from '../operations/door-limits';
import type { InvoiceDesk } from '../operations/invoice-desk';
import type { QpayConnection } from '../operations/qpay-connection';
import type { WebhookSecret } from '../operations/webhook-secret';

/** What the payments routes are built on. */
export interface PaymentsRouteDeps {
  prisma: PrismaClient;
  desk: InvoiceDesk;
  qpay: QpayConnection;
  config: PaymentsConfig;
  webhookSecret: WebhookSecret;
  limits: DoorLimits;
  prices: PriceLists;
  lock: Lock;
}
