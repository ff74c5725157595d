import { logBody, logText } from '@bo/platform';
import type { SqlClient } from '@bo/platform/db';
import { logRetention } from '@bo/platform/service';
import { invoiceOrderSchema, schemaOf, type InvoiceRecord, type InvoiceView, type Payer, type WebhookLog } from '@bo/proto';
import type { Prisma, PrismaClient, QpayInvoice, QpayWebhookLog } from '../generated/prisma/client';

/** The service's database client or one of its transactions: store functions run in either, never opening their own. */
export type PaymentsDb = PrismaClient | Prisma.TransactionClient;

/** Raw SQL is not schema-qualified by Prisma (see platform's prisma-client). */
const INVOICES = `"${schemaOf('payments')}".qpay_invoices`;

/** A pending invoice's payment is checked with QPay at most this often on behalf of the payment page. */
export const PAGE_CHECK_INTERVAL_MS = 5_000;

export type BankLink = InvoiceView['paymentUrls'][number];

export const payerOf = (record: QpayInvoice): Payer => ({ name: record.customerName, email: record.customerEmail, phone: record.customerPhone, subscriberId: record.userId });
export const statusOf = (record: QpayInvoice) => record.status as InvoiceRecord['status'];

export function invoiceRecord(record: QpayInvoice, publicUrl: string): InvoiceRecord {
  return {
    invoiceId: record.invoiceId,
    senderInvoiceNo: record.senderInvoiceNo,
    qpayInvoiceId: record.qpayInvoiceId,
    description: record.description,
    amount: record.amount,
    status: statusOf(record),
    flag: record.flag,
    payer: payerOf(record),
    order: invoiceOrderSchema.parse(record.metadata),
    environment: record.environment === 'production' ? 'production' : 'sandbox',
    paymentUrl: `${publicUrl}/payment/${record.invoiceId}`,
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt.toISOString(),
    paidAt: record.paidAt?.toISOString() ?? null,
    paymentId: record.paymentId,
    approvedBy: record.approvedBy,
    lastCheckedAt: record.lastCheckedAt?.toISOString() ?? null,
    refund: record.refundedAt ? { at: record.refundedAt.toISOString(), by: record.refundedBy ?? '', method: record.refundMethod === 'qpay' ? 'qpay' : 'by_hand' } : null,
  };
}

export function invoiceView(record: QpayInvoice): InvoiceView {
  return {
    invoiceId: record.invoiceId,
    qpayInvoiceId: record.qpayInvoiceId,
    description: record.description,
    status: statusOf(record),
    customerName: record.customerName,
    amount: record.amount,
    qrImage: record.qrImage ? `data:image/png;base64,${record.qrImage}` : null,
    createdAt: record.createdAt.toISOString(),
    paidAt: record.paidAt?.toISOString() ?? null,
    paymentUrls: record.urls as BankLink[],
  };
}

export const logView = (record: QpayWebhookLog): WebhookLog => ({
  id: record.id,
  type: record.type,
  reference: record.reference,
  status: record.status as WebhookLog['status'],
  requestData: record.requestData,
  responseData: record.responseData,
  responseTime: record.responseTime,
  errorMessage: record.errorMessage,
  createdAt: record.createdAt.toISOString(),
});

export interface PaidBy {
  paymentId: string | null;
  paymentPayload: unknown;
  approvedBy: string | null;
}

export const invoiceStore = {
  /** Visible invoices only: a deleted one is kept for the audit trail but found by nobody. */
  find: (db: PaymentsDb, invoiceId: string) => db.qpayInvoice.findFirst({ where: { invoiceId, deletedAt: null } }),

  /** By our id or QPay's (a callback may name either). */
  findByAnyId: (db: PaymentsDb, id: string) => db.qpayInvoice.findFirst({ where: { deletedAt: null, OR: [{ invoiceId: id }, { qpayInvoiceId: id }] } }),

  findByReference: (db: PaymentsDb, reference: string) => db.qpayInvoice.findUnique({ where: { reference } }),

  create: (db: PaymentsDb, data: Prisma.QpayInvoiceUncheckedCreateInput) => db.qpayInvoice.create({ data }),

  recent: (db: PaymentsDb, limit: number) => db.qpayInvoice.findMany({ where: { deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),

  /** Flagged first (an admin must act), then oldest first. */
  pending: async (db: PaymentsDb) => {
    const rows = await db.qpayInvoice.findMany({ where: { status: 'pending', deletedAt: null }, orderBy: [{ createdAt: 'asc' }], take: 500 });
    return [...rows.filter((row) => row.flag), ...rows.filter((row) => !row.flag)];
  },

  ofUser: (db: PaymentsDb, userId: string) => db.qpayInvoice.findMany({ where: { userId, deletedAt: null }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 200 }),

  /**
   * The one transition to paid (ADR 14): whoever comes first — a callback, the reconciliation,
   * the payment page's check, an admin — changes the row; the others find it paid and change
   * nothing. Returns the paid invoice, or null when it was not pending.
   */
  async markPaid(db: PaymentsDb, invoiceId: string, by: PaidBy): Promise<QpayInvoice | null> {
    const changed = await db.qpayInvoice.updateManyAndReturn({
      where: { invoiceId, status: 'pending', deletedAt: null },
      data: { status: 'paid', paidAt: new Date(), paymentId: by.paymentId, paymentPayload: (by.paymentPayload ?? undefined) as Prisma.InputJsonValue | undefined, approvedBy: by.approvedBy, flag: null },
    });
    if (changed.length === 0) return null;
    await db.customPayment.updateMany({ where: { invoiceId }, data: { status: 'PAID', paidAt: changed[0].paidAt } });
    return changed[0];
  },

  async markCancelled(db: PaymentsDb, invoiceId: string, deleted: boolean): Promise<QpayInvoice | null> {
    const now = new Date();
    const changed = await db.qpayInvoice.updateManyAndReturn({
      where: { invoiceId, status: 'pending', deletedAt: null },
      data: { status: 'cancelled', cancelledAt: now, ...(deleted ? { deletedAt: now } : {}) },
    });
    if (changed.length === 0) return null;
    await db.customPayment.updateMany({ where: { invoiceId }, data: { status: 'CANCELLED' } });
    return changed[0];
  },

  /** Records a paid invoice's refund once; null when it was refunded already. */
  async markRefunded(db: PaymentsDb, invoiceId: string, refund: { by: string; method: 'qpay' | 'by_hand' }): Promise<QpayInvoice | null> {
    const changed = await db.qpayInvoice.updateManyAndReturn({
      where: { invoiceId, status: 'paid', refundedAt: null },
      data: { refundedAt: new Date(), refundedBy: refund.by, refundMethod: refund.method },
    });
    return changed[0] ?? null;
  },

  flag: (db: PaymentsDb, invoiceId: string, flag: string) => db.qpayInvoice.updateMany({ where: { invoiceId, status: 'pending' }, data: { flag } }),

  /**
   * Claims the right to ask QPay about a pending invoice now, at most once per `intervalMs`:
   * true for one caller, false for the others (so a page open on many phones asks once).
   */
  async claimCheck(db: PaymentsDb, invoiceId: string, intervalMs: number): Promise<boolean> {
    const claimed = await db.$executeRawUnsafe(
      `UPDATE ${INVOICES} SET last_checked_at = now()
        WHERE invoice_id = $1 AND status = 'pending' AND deleted_at IS NULL AND qpay_invoice_id IS NOT NULL
          AND (last_checked_at IS NULL OR last_checked_at < now() - ($2::integer * interval '1 millisecond'))`,
      invoiceId,
      intervalMs,
    );
    return claimed === 1;
  },

  /** Pending invoices the reconciliation should look at now: expired ones, and those not checked for `staleMs`. */
  dueForReconciliation: (db: PaymentsDb, staleMs: number, limit: number) =>
    db.qpayInvoice.findMany({
      where: {
        status: 'pending',
        deletedAt: null,
        qpayInvoiceId: { not: null },
        OR: [{ expiresAt: { lte: new Date() } }, { lastCheckedAt: null }, { lastCheckedAt: { lt: new Date(Date.now() - staleMs) } }],
      },
      orderBy: [{ lastCheckedAt: { sort: 'asc', nulls: 'first' } }],
      take: limit,
    }),
};

/**
 * The callback and webhook log (qpay_webhook_logs). Anonymous callers feed it, so it keeps at most
 * 8 KiB of each body and message (the platform's log helpers) and 30 days of rows (webhookLogRetention).
 */
export const logStore = {
  add: (db: PaymentsDb, entry: { type: string; reference: string | null; status: WebhookLog['status']; requestData?: unknown; responseData?: unknown; responseTime?: number; errorMessage?: string | null }) =>
    db.qpayWebhookLog.create({
      data: {
        type: entry.type,
        reference: entry.reference,
        status: entry.status,
        requestData: logBody(entry.requestData ?? undefined) as Prisma.InputJsonValue | undefined,
        responseData: logBody(entry.responseData ?? undefined) as Prisma.InputJsonValue | undefined,
        responseTime: entry.responseTime === undefined ? null : Math.round(entry.responseTime),
        errorMessage: entry.errorMessage == null ? null : logText(entry.errorMessage),
      },
    }),
  recent: (db: PaymentsDb, limit: number) => db.qpayWebhookLog.findMany({ orderBy: { id: 'desc' }, take: limit }),
};

export const webhookLogRetention = (db: SqlClient) => logRetention({ db, schema: schemaOf('payments'), tables: [{ table: 'qpay_webhook_logs', column: 'created_at' }] });
