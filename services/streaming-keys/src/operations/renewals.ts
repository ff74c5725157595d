/**
 * Renewals (ADR 14): notifications asks for a renewal session for its reminder; opening the
 * link makes (once) the renewal invoice through payments and sends the browser to its payment
 * page; the paid event moves the key's expiry. An admin's extend moves it the same way.
 */
import { randomBytes } from 'node:crypto';
import { notFound } from '@bo/platform';
import { streamingKeyExtended, streamingServiceOf, type InvoiceOrder, type ServiceCode } from '@bo/proto';
import { daysFromNow, extendedExpiry } from '../domain/keys';
import type { Prisma, PrismaClient, RenewalSession, StreamingKey } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import { orderStore } from '../store/order-store';
import { pricingStore } from '../store/pricing-store';
import { paymentsFailure, type PaymentsClient } from '../clients/payments';
import type { Publish } from './publish';

/** How long a reminder's link can be opened: past the expiry it warns of, for a late payer. */
export const RENEWAL_SESSION_DAYS = 7;

export type RenewalOrder = Extract<InvoiceOrder, { kind: 'renewal' }>;

/** 128 random bits: the link is the only thing between a stranger and someone's renewal page. */
const newSessionId = () => `rs_${randomBytes(16).toString('hex')}`;

export const renewalPath = (sessionId: string) => `/api/streaming/renew/${sessionId}`;

/** A key's expiry moved later, with the key.extended event in the same transaction. */
export async function moveExpiry(
  tx: Prisma.TransactionClient,
  publish: Publish,
  key: StreamingKey,
  expiresAt: Date,
  cause: { invoiceId: string | null; months: number | null; amount: number | null },
): Promise<StreamingKey> {
  const moved = await keyStore.setExpiry(tx, key.id, expiresAt);
  await publish(streamingKeyExtended, {
    keyId: moved.id,
    revision: moved.version,
    key: moved.key,
    service: moved.service as ServiceCode,
    accountEmail: moved.email,
    profileNumber: moved.profileNumber,
    expiresAt: moved.expiresAt.toISOString(),
    customerId: moved.customerId,
    previousExpiresAt: key.expiresAt.toISOString(),
    ...cause,
  });
  return moved;
}

/** The paid event of a renewal, in the inbox transaction: `months` more from the later of now and the expiry. */
export async function renewForPaidOrder(tx: Prisma.TransactionClient, publish: Publish, payment: { invoiceId: string; amount: number; paidAt: string }, order: RenewalOrder): Promise<StreamingKey | null> {
  const key = await keyStore.lockKey(tx, order.keyId);
  // The key was deleted after the link went out: nothing to extend (the payment stays visible in payments).
  if (!key) return null;
  if (order.renewalSessionId) await orderStore.markRenewalPaid(tx, order.renewalSessionId, payment.invoiceId, new Date(payment.paidAt));
  return moveExpiry(tx, publish, key, extendedExpiry(key.expiresAt, order.months), { invoiceId: payment.invoiceId, months: order.months, amount: payment.amount });
}

export class Renewals {
  constructor(private readonly deps: { prisma: PrismaClient; payments: PaymentsClient }) {}

  /** A session for the key (an unopened one of the same duration is answered again, so a retried request gets the same link). */
  async start(keyId: number, months: number, now = new Date()) {
    const { prisma } = this.deps;
    const key = await keyStore.find(prisma, keyId);
    if (!key) throw notFound('Key not found');
    const session =
      (await orderStore.findOpenRenewal(prisma, keyId, months, daysFromNow(1, now))) ??
      (await orderStore.createRenewal(prisma, { id: newSessionId(), keyId, userId: key.customerId, selectedDuration: months, expiresAt: daysFromNow(RENEWAL_SESSION_DAYS, now) }));
    const amount = await pricingStore.priceOf(prisma, key.service as ServiceCode, months);
    return { sessionId: session.id, keyId, months, amount, path: renewalPath(session.id), expiresAt: session.expiresAt.toISOString() };
  }

  /**
   * The invoice a session's link leads to: the one already made while it can still be paid, or a
   * new one through payments (an unpaid invoice is cancelled after a day, the link lasts a week).
   * Null when the session is unknown or expired. Two opens at once send the same reference (it
   * names the invoice it replaces), and payments answers one invoice per reference.
   */
  async invoiceFor(sessionId: string, now = new Date()): Promise<{ invoiceId: string } | { noPrice: string } | null> {
    const { prisma, payments } = this.deps;
    const session = await orderStore.findRenewal(prisma, sessionId);
    if (!session || (session.status !== 'paid' && session.expiresAt.getTime() <= now.getTime())) return null;
    let replaces: string | null = null;
    if (session.invoiceId) {
      if (session.status === 'paid') return { invoiceId: session.invoiceId };
      const current = await payments.invoice(session.invoiceId).catch((error) => Promise.reject(paymentsFailure(error)));
      if (current && current.status !== 'cancelled') return { invoiceId: session.invoiceId };
      replaces = session.invoiceId;
    }
    const key = await keyStore.find(prisma, session.keyId);
    if (!key) return null;
    const service = key.service as ServiceCode;
    const amount = await pricingStore.priceOf(prisma, service, session.selectedDuration);
    const name = `${streamingServiceOf(service).name} ${session.selectedDuration}`;
    if (!amount) return { noPrice: `There is no price for ${name} month(s) yet: please ask us in the chat` };
    let made;
    try {
      made = await payments.createInvoice(renewalPayment(session, key, amount, name, replaces));
    } catch (error) {
      throw paymentsFailure(error);
    }
    await orderStore.attachRenewalInvoice(prisma, sessionId, made.invoiceId, replaces);
    return { invoiceId: made.invoiceId };
  }
}

function renewalPayment(session: RenewalSession, key: StreamingKey, amount: number, name: string, replaces: string | null) {
  return {
    reference: replaces ? `renewal:${session.id}:after:${replaces}` : `renewal:${session.id}`,
    description: `${name} сар сунгалт (${key.key})`,
    amount,
    payer: { name: null, email: key.buyerEmail, phone: null, subscriberId: session.userId ?? key.customerId },
    order: { kind: 'renewal' as const, keyId: key.id, months: session.selectedDuration, renewalSessionId: session.id },
  };
}
