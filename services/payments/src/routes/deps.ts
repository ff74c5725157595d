import type { PaymentsConfig } from '../config';
import type { PrismaClient } from '../generated/prisma/client';
import type { InvoiceDesk } from '../operations/invoice-desk';
import type { QpayConnection } from '../operations/qpay-connection';

/** What the payments routes are built on. */
export interface PaymentsRouteDeps {
  prisma: PrismaClient;
  desk: InvoiceDesk;
  qpay: QpayConnection;
  config: PaymentsConfig;
}
