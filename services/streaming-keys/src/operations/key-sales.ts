/**
 * A paid order gets a key (ADR 14): the consumer of payments.invoice.paid for a streaming order,
 * and an admin's Assign key for an order that was paid while no key was free. Both run the same
 * sale in one transaction with the key.assigned event: a free key taken under SKIP LOCKED (two
 * sales at once take two different keys), the order locked first (two presses at once give one key).
 * A payment below the order's price never gets a key by itself (issue 18 §1): it waits for an
 * admin's approval (Assign key) or refund.
 */
import { streamingKeyAssigned, streamingServiceOf, type InvoiceOrder, type Payer, type ServiceCode } from '@bo/proto';
import type { EventEnvelope } from '@bo/proto';
import { addMonths, belowPriceReason, noFreeKeyReason } from '../domain/keys';
import type { Prisma, StreamingKey } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import { orderStore, type InvoiceWithKey } from '../store/order-store';
import { pricingStore } from '../store/pricing-store';
import type { Publish } from './publish';

export type StreamingOrder = Extract<InvoiceOrder, { kind: 'streaming' }>;

/** What a paid invoice tells about itself. */
export interface Payment {
  invoiceId: string;
  paidAt: Date;
  payer: Payer;
}

export type SaleOutcome =
  | { outcome: 'assigned'; invoice: InvoiceWithKey; key: StreamingKey }
  | { outcome: 'no_free_key'; invoice: InvoiceWithKey }
  | { outcome: 'below_price'; invoice: InvoiceWithKey }
  | { outcome: 'not_waiting'; invoice: InvoiceWithKey };

/** Who an order's key goes to, as the order recorded it (Assign key has no event to read it from). */
const payerOf = (invoice: InvoiceWithKey): Payer => ({ name: invoice.customerName, email: invoice.email, phone: invoice.phoneNumber, subscriberId: invoice.subscriberId });

/**
 * Takes one free key of the order's service for a paid order, or marks the order
 * NEEDS_ATTENTION with the reason when none is free. Nothing is thrown for a missing key: the
 * payment is recorded either way.
 */
async function sell(tx: Prisma.TransactionClient, publish: Publish, invoice: InvoiceWithKey, payment: Payment): Promise<SaleOutcome> {
  const service = invoice.serviceCode as ServiceCode;
  const keyId = await keyStore.lockFreeKey(tx, service);
  if (keyId === null) {
    const waiting = await orderStore.markNeedsAttention(tx, invoice.id, { invoiceId: payment.invoiceId, paidAt: payment.paidAt, reason: noFreeKeyReason(service), kind: 'no_free_key' });
    return { outcome: 'no_free_key', invoice: waiting };
  }
  const now = new Date();
  const key = await keyStore.assign(tx, keyId, {
    customerId: payment.payer.subscriberId,
    buyerEmail: invoice.email ?? payment.payer.email,
    expiresAt: addMonths(now, invoice.duration),
    streamingInvoiceId: invoice.id,
    at: now,
  });
  const paid = await orderStore.markPaid(tx, invoice.id, { invoiceId: payment.invoiceId, paidAt: payment.paidAt, keyId });
  await publish(streamingKeyAssigned, {
    keyId: key.id,
    revision: key.version,
    key: key.key,
    service,
    accountEmail: key.email,
    profileNumber: key.profileNumber,
    expiresAt: key.expiresAt.toISOString(),
    customerId: key.customerId,
    invoiceId: payment.invoiceId,
    streamingInvoiceId: invoice.id,
    months: invoice.duration,
    amount: invoice.amount,
    payer: payment.payer,
  });
  return { outcome: 'assigned', invoice: paid, key };
}

/**
 * The paid event of a streaming order, in the inbox transaction. The order is found by its id
 * (made here) or by the invoice (a retried request), or made from the event (an order that
 * began in the chat). An order that already has its outcome is left alone.
 */
export async function sellForPaidOrder(tx: Prisma.TransactionClient, publish: Publish, event: EventEnvelope<{ invoiceId: string; amount: number; description: string; paidAt: string; payer: Payer }>, order: StreamingOrder): Promise<SaleOutcome> {
  const { payload } = event;
  const known = (order.streamingInvoiceId !== null ? await orderStore.lock(tx, order.streamingInvoiceId) : null) ?? (await findAndLock(tx, payload.invoiceId));
  const invoice =
    known ??
    (await orderStore.create(tx, {
      invoiceId: payload.invoiceId,
      email: order.email ?? payload.payer.email,
      serviceCode: order.serviceCode,
      duration: order.months,
      amount: payload.amount,
      customerName: payload.payer.name,
      phoneNumber: payload.payer.phone,
      subscriberId: payload.payer.subscriberId,
      platform: 'chat',
      productName: payload.description || `${streamingServiceOf(order.serviceCode).name} ${order.months}`,
    }));
  if (invoice.status === 'PAID' || invoice.status === 'NEEDS_ATTENTION' || invoice.status === 'REFUNDED') return { outcome: 'not_waiting', invoice };
  // An order made here is held to the amount it asked for (an admin may have set it); one that began in the chat, to the price list.
  const price = known ? known.amount : await pricingStore.priceOf(tx, order.serviceCode, order.months);
  if (price === null || payload.amount < price) {
    const reason = belowPriceReason({ service: order.serviceCode, months: order.months }, payload.amount, price);
    const waiting = await orderStore.markNeedsAttention(tx, invoice.id, { invoiceId: payload.invoiceId, paidAt: new Date(payload.paidAt), reason, kind: 'price_check' });
    return { outcome: 'below_price', invoice: waiting };
  }
  // A FAILED or CANCELLED order was paid after all (payments made it though our call failed): the money decides.
  return sell(tx, publish, invoice, { invoiceId: payload.invoiceId, paidAt: new Date(payload.paidAt), payer: payload.payer });
}

async function findAndLock(tx: Prisma.TransactionClient, invoiceId: string): Promise<InvoiceWithKey | null> {
  const found = await orderStore.findByInvoiceId(tx, invoiceId);
  return found ? orderStore.lock(tx, found.id) : null;
}

/**
 * Assign key: a paid order still waiting for a key gets one; any other order is left as it is.
 * On an order paid below its price, the press is the admin's approval, recorded with who. Null
 * when there is no such order.
 */
export async function assignWaitingOrder(tx: Prisma.TransactionClient, publish: Publish, streamingInvoiceId: number, admin: string): Promise<SaleOutcome | null> {
  const locked = await orderStore.lock(tx, streamingInvoiceId);
  if (!locked) return null;
  if (locked.status !== 'NEEDS_ATTENTION' || !locked.invoiceId || !locked.paidAt) return { outcome: 'not_waiting', invoice: locked };
  const invoice = locked.attentionKind === 'price_check' ? await orderStore.markApproved(tx, locked.id, admin) : locked;
  return sell(tx, publish, invoice, { invoiceId: locked.invoiceId, paidAt: locked.paidAt, payer: payerOf(invoice) });
}
