import { schemaOf, streamingServiceOf, type attentionKinds, type ServiceCode, type StreamingInvoiceView } from '@bo/proto';
import type { Prisma, RenewalSession, StreamingInvoice, StreamingKey } from '../generated/prisma/client';
import type { KeysDb } from './key-store';

const INVOICES_TABLE = `"${schemaOf('streaming-keys')}".streaming_invoices`;

export type InvoiceWithKey = StreamingInvoice & { key: Pick<StreamingKey, 'key'> | null };

export const invoiceView = (record: InvoiceWithKey): StreamingInvoiceView => ({
  id: record.id,
  invoiceId: record.invoiceId,
  email: record.email,
  serviceCode: record.serviceCode as ServiceCode,
  serviceName: streamingServiceOf(record.serviceCode as ServiceCode).name,
  duration: record.duration,
  amount: record.amount,
  status: record.status as StreamingInvoiceView['status'],
  attentionReason: record.attentionReason,
  attentionKind: record.attentionKind as StreamingInvoiceView['attentionKind'],
  approvedBy: record.approvedBy,
  refundedAt: record.refundedAt?.toISOString() ?? null,
  refundedBy: record.refundedBy,
  paymentUrl: record.paymentUrl,
  paidAt: record.paidAt?.toISOString() ?? null,
  keyGenerated: record.keyGenerated,
  keyId: record.keyId,
  key: record.key?.key ?? null,
  customerName: record.customerName,
  phoneNumber: record.phoneNumber,
  subscriberId: record.subscriberId,
  platform: record.platform,
  productName: record.productName,
  createdAt: record.createdAt.toISOString(),
});

const withKey = { key: { select: { key: true } } } as const;

export interface NewStreamingInvoice {
  invoiceId?: string | null;
  email: string | null;
  serviceCode: ServiceCode;
  duration: number;
  amount: number;
  customerName: string | null;
  phoneNumber: string | null;
  subscriberId: string | null;
  platform: 'admin' | 'chat';
  productName: string;
}

/** Streaming orders and renewal sessions; the only place that touches those two tables. */
export const orderStore = {
  find(db: KeysDb, id: number) {
    return db.streamingInvoice.findUnique({ where: { id }, include: withKey });
  },

  findByInvoiceId(db: KeysDb, invoiceId: string) {
    return db.streamingInvoice.findUnique({ where: { invoiceId }, include: withKey });
  },

  list(db: KeysDb, status?: string) {
    return db.streamingInvoice.findMany({ where: status ? { status } : {}, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], include: withKey });
  },

  create(db: KeysDb, data: NewStreamingInvoice) {
    return db.streamingInvoice.create({ data, include: withKey });
  },

  /** payments made the QPay invoice: its id and payment page. */
  attachPayment(db: KeysDb, id: number, invoiceId: string, paymentUrl: string) {
    return db.streamingInvoice.update({ where: { id }, data: { invoiceId, paymentUrl }, include: withKey });
  },

  /** Only a still-pending order fails (a paid event may have come first). */
  markFailed(db: KeysDb, id: number, reason: string) {
    return db.streamingInvoice.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'FAILED', attentionReason: reason } });
  },

  /** Locks an order for this transaction, so one assignment at a time looks at it. */
  async lock(tx: Prisma.TransactionClient, id: number): Promise<InvoiceWithKey | null> {
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(`SELECT id FROM ${INVOICES_TABLE} WHERE id = $1 FOR UPDATE`, id);
    return rows.length ? tx.streamingInvoice.findUnique({ where: { id }, include: withKey }) : null;
  },

  markPaid(tx: Prisma.TransactionClient, id: number, paid: { invoiceId: string; paidAt: Date; keyId: number }) {
    return tx.streamingInvoice.update({ where: { id }, data: { status: 'PAID', invoiceId: paid.invoiceId, paidAt: paid.paidAt, keyId: paid.keyId, keyGenerated: true, attentionReason: null, attentionKind: null }, include: withKey });
  },

  markNeedsAttention(tx: Prisma.TransactionClient, id: number, waiting: { invoiceId: string; paidAt: Date; reason: string; kind: (typeof attentionKinds)[number] }) {
    return tx.streamingInvoice.update({
      where: { id },
      data: { status: 'NEEDS_ATTENTION', invoiceId: waiting.invoiceId, paidAt: waiting.paidAt, attentionReason: waiting.reason, attentionKind: waiting.kind },
      include: withKey,
    });
  },

  /** An admin let a payment below the price have its key: recorded before the sale is tried. */
  markApproved(tx: Prisma.TransactionClient, id: number, approvedBy: string) {
    return tx.streamingInvoice.update({ where: { id }, data: { approvedBy }, include: withKey });
  },

  /** Closes an order waiting for an admin once its money went back; null when it no longer waits. */
  async markRefunded(db: KeysDb, id: number, refund: { at: Date; by: string; reason: string }): Promise<InvoiceWithKey | null> {
    const { count } = await db.streamingInvoice.updateMany({
      where: { id, status: 'NEEDS_ATTENTION' },
      data: { status: 'REFUNDED', refundedAt: refund.at, refundedBy: refund.by, attentionReason: refund.reason, attentionKind: null },
    });
    return count === 1 ? db.streamingInvoice.findUnique({ where: { id }, include: withKey }) : null;
  },

  createRenewal(db: KeysDb, data: { id: string; keyId: number; userId: string | null; selectedDuration: number; expiresAt: Date }) {
    return db.renewalSession.create({ data });
  },

  /** A session of the key and duration that can still be opened, to answer a repeated request with the same link. */
  findOpenRenewal(db: KeysDb, keyId: number, months: number, validUntilAtLeast: Date) {
    return db.renewalSession.findFirst({ where: { keyId, selectedDuration: months, status: 'pending', invoiceId: null, expiresAt: { gt: validUntilAtLeast } }, orderBy: { createdAt: 'desc' } });
  },

  findRenewal(db: KeysDb, id: string): Promise<RenewalSession | null> {
    return db.renewalSession.findUnique({ where: { id } });
  },

  /** Keeps the first invoice of a session: a second opener finds it set and uses it. */
  /** Records the session's invoice: its first, or the successor of the cancelled one it `replaces`. */
  async attachRenewalInvoice(db: KeysDb, id: string, invoiceId: string, replaces: string | null): Promise<void> {
    await db.renewalSession.updateMany({ where: { id, invoiceId: replaces }, data: { invoiceId } });
  },

  markRenewalPaid(tx: Prisma.TransactionClient, id: string, invoiceId: string, paidAt: Date) {
    return tx.renewalSession.updateMany({ where: { id }, data: { status: 'paid', invoiceId, paidAt } });
  },
};
