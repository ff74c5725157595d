import { AppError, conflict, notFound, serviceUnavailable, type Logger } from '@bo/platform';
import type { Lock } from '@bo/platform/cache';
import type { Outbox } from '@bo/platform/events';
import type { PrismaTransaction } from '@bo/platform/service';
import { formatTugrik, paymentsInvoicePaid, type InvoiceOrder, type Payer } from '@bo/proto';
import { paidSum, QpayError, type QpayPaymentCheck } from '../clients/qpay';
import type { PaymentsConfig } from '../config';
import { callbackUrlFor, judgePayment, newCallbackToken, newInvoiceId } from '../domain/invoices';
import type { PrismaClient, QpayInvoice } from '../generated/prisma/client';
import { invoiceStore, logStore, payerOf, type PaidBy } from '../store/invoice-store';
import type { QpayConnection } from './qpay-connection';

export interface NewInvoice {
  /** Unique per order: the same reference answers the invoice already made. Null: always a new one. */
  reference: string | null;
  /** The request that asked for it (a chat order): the same reference with another fingerprint is refused. */
  fingerprint?: string;
  description: string;
  amount: number;
  payer: Payer;
  order: InvoiceOrder;
}

/** What a look at QPay's payment check found, and what it changed. */
export interface CheckOutcome {
  invoice: QpayInvoice;
  paidAmount: number;
  /** True when this check moved the invoice to paid. */
  completed: boolean;
  message: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A QPay failure as the caller sees it: 503 when QPay could not be reached or was busy, else 502 with QPay's reason. */
export function qpayFailure(error: unknown): AppError {
  if (!(error instanceof QpayError)) return error as AppError;
  return new AppError(error.retryable || error.status >= 500 ? 503 : 502, 'qpay_failed', error.message);
}

/**
 * Invoices from birth to paid or cancelled (ADR 14). Every way to paid — callbacks, the
 * reconciliation, the payment page's check, an admin's approval — ends in `complete`, one
 * conditional UPDATE committed with its event.
 */
export class InvoiceDesk {
  constructor(
    private readonly deps: {
      prisma: PrismaClient;
      outbox: Outbox<PrismaTransaction<PrismaClient>>;
      qpay: QpayConnection;
      lock: Lock;
      config: PaymentsConfig;
      logger: Logger;
    },
  ) {}

  /**
   * The invoice already made for `reference`, or null. A request with another fingerprint may not
   * take over an order someone else began (a squatted chat reference): 409.
   */
  async madeFor(reference: string, fingerprint: string | undefined): Promise<QpayInvoice | null> {
    const made = await invoiceStore.findByReference(this.deps.prisma, reference);
    if (made && fingerprint && made.requestFingerprint && made.requestFingerprint !== fingerprint) {
      throw conflict(`The order reference ${reference} was already used with other details: send the same request again, or use a new invoice_id`);
    }
    return made;
  }

  /** Makes the invoice at QPay and records it; with a reference, once per reference across replicas. */
  async create(input: NewInvoice): Promise<{ invoice: QpayInvoice; created: boolean }> {
    if (input.reference === null) return { invoice: await this.createAtQpay(input), created: true };
    const reference = input.reference;
    const existing = await this.madeFor(reference, input.fingerprint);
    if (existing) return { invoice: existing, created: false };
    // Two requests with one reference at once: one makes the invoice, the other waits and answers it (or is refused, another body).
    const leaseMs = this.deps.config.QPAY_TIMEOUT_MS * 4 + 5_000;
    const deadline = Date.now() + leaseMs;
    while (Date.now() < deadline) {
      const turn = await this.deps.lock.withLock(`invoice-reference:${reference}`, leaseMs, async () => {
        const made = await this.madeFor(reference, input.fingerprint);
        return made ? { invoice: made, created: false } : { invoice: await this.createAtQpay(input), created: true };
      });
      if (turn.acquired) return turn.result;
      await sleep(100);
    }
    throw serviceUnavailable(`Another request is still making the invoice for ${reference}; try again`);
  }

  private async createAtQpay(input: NewInvoice): Promise<QpayInvoice> {
    const qpay = await this.deps.qpay.active();
    const invoiceId = newInvoiceId();
    const callbackToken = newCallbackToken();
    const callbackUrl = callbackUrlFor(qpay.callbackBase, invoiceId, callbackToken);
    const receiver = Object.fromEntries(Object.entries({ name: input.payer.name, email: input.payer.email, phone: input.payer.phone }).filter(([, value]) => value));
    let made;
    try {
      made = await qpay.client.createInvoice({
        invoice_code: qpay.invoiceCode,
        // Ours, so an invoice found at QPay names the order it belongs to.
        sender_invoice_no: invoiceId,
        invoice_receiver_code: 'terminal',
        invoice_description: input.description.slice(0, 255),
        amount: input.amount,
        callback_url: callbackUrl,
        ...(Object.keys(receiver).length > 0 ? { invoice_receiver_data: receiver } : {}),
      });
    } catch (error) {
      throw qpayFailure(error);
    }
    const months = input.order.kind === 'custom' ? null : input.order.months;
    const invoice = await this.deps.prisma.$transaction(async (tx) => {
      const record = await invoiceStore.create(tx, {
        invoiceId,
        reference: input.reference,
        invoiceCode: qpay.invoiceCode,
        senderInvoiceNo: invoiceId,
        customerName: input.payer.name,
        customerEmail: input.payer.email,
        customerPhone: input.payer.phone,
        userId: input.payer.subscriberId,
        description: input.description,
        amount: input.amount,
        duration: months,
        environment: qpay.environment,
        qpayInvoiceId: made.invoice_id,
        qrText: made.qr_text,
        qrImage: made.qr_image,
        urls: made.urls ?? [],
        callbackUrl,
        callbackToken,
        metadata: input.order,
        requestFingerprint: input.fingerprint ?? null,
        expiresAt: new Date(Date.now() + this.deps.config.INVOICE_EXPIRY_MINUTES * 60_000),
      });
      if (input.order.kind === 'custom') {
        await tx.customPayment.create({ data: { invoiceId, customerName: input.payer.name, productName: input.order.productName, amount: input.amount, description: input.description, subscriberId: input.payer.subscriberId } });
      }
      return record;
    });
    return invoice;
  }

  /** The single transition to paid, with payments.invoice.paid in the same transaction; null when the invoice was not pending. */
  async complete(invoiceId: string, by: PaidBy): Promise<QpayInvoice | null> {
    return this.deps.outbox.commit(async (tx, emit) => {
      const paid = await invoiceStore.markPaid(tx, invoiceId, by);
      if (!paid) return null;
      emit(paymentsInvoicePaid, {
        invoiceId: paid.invoiceId,
        revision: 1,
        amount: paid.amount,
        description: paid.description,
        paidAt: paid.paidAt!.toISOString(),
        paymentId: paid.paymentId,
        approvedBy: paid.approvedBy,
        payer: payerOf(paid),
        order: paid.metadata as InvoiceOrder,
      });
      return paid;
    });
  }

  /**
   * Asks QPay whether the invoice was paid and acts on the answer: the exact amount completes it,
   * another sum flags it for an admin, nothing leaves it pending. QPay failures are thrown.
   */
  async check(invoice: QpayInvoice, source: string): Promise<CheckOutcome> {
    if (invoice.status !== 'pending' || !invoice.qpayInvoiceId) return { invoice, paidAmount: 0, completed: false, message: `The invoice is ${invoice.status}` };
    const started = Date.now();
    let result: QpayPaymentCheck;
    try {
      result = await (await this.deps.qpay.forInvoice(invoice.environment)).checkPayment(invoice.qpayInvoiceId);
    } catch (error) {
      await logStore.add(this.deps.prisma, { type: 'check', reference: invoice.invoiceId, status: 'error', requestData: { source }, responseTime: Date.now() - started, errorMessage: (error as Error).message });
      throw qpayFailure(error);
    }
    await this.deps.prisma.qpayInvoice.update({ where: { id: invoice.id }, data: { lastCheckedAt: new Date() } });
    const paidAmount = paidSum(result);
    const judged = judgePayment(invoice.amount, paidAmount);
    const paidRows = result.rows.filter((row) => row.payment_status === 'PAID');
    let completed = false;
    let current = invoice;
    if (judged.outcome === 'paid') {
      const paid = await this.complete(invoice.invoiceId, { paymentId: paidRows.map((row) => row.payment_id).join(','), paymentPayload: result.rows, approvedBy: null });
      completed = paid !== null;
      current = paid ?? (await invoiceStore.find(this.deps.prisma, invoice.invoiceId)) ?? invoice;
    } else if (judged.outcome === 'flag') {
      await invoiceStore.flag(this.deps.prisma, invoice.invoiceId, judged.message);
      current = { ...invoice, flag: judged.message };
    }
    if (judged.outcome !== 'unpaid') {
      await logStore.add(this.deps.prisma, {
        type: 'check',
        reference: invoice.invoiceId,
        status: completed ? 'accepted' : 'ignored',
        requestData: { source },
        responseData: { paidAmount, count: result.count, outcome: judged.outcome },
        responseTime: Date.now() - started,
        errorMessage: judged.outcome === 'flag' ? judged.message : null,
      });
    }
    if (completed) this.deps.logger.info({ invoiceId: invoice.invoiceId, source, paidAmount }, 'invoice paid');
    return { invoice: current, paidAmount, completed, message: judged.message };
  }

  /**
   * Gives a paid invoice's money back, once: QPay's refund call for each of its payments; where
   * QPay cannot (a bank transfer is settled at once: PAYMENT_SETTLED) or there is no QPay payment
   * (approved by hand), the admin returns it themselves and this records that, with who and when.
   */
  async refund(invoiceId: string, refundedBy: string, note?: string): Promise<{ invoice: QpayInvoice; message: string }> {
    const leaseMs = this.deps.config.QPAY_TIMEOUT_MS * 4 + 5_000;
    const turn = await this.deps.lock.withLock(`invoice-refund:${invoiceId}`, leaseMs, async () => {
      const invoice = await invoiceStore.find(this.deps.prisma, invoiceId);
      if (!invoice) throw notFound('Invoice not found');
      if (invoice.refundedAt) return { invoice, message: `Already refunded by ${invoice.refundedBy} (${invoice.refundMethod === 'qpay' ? 'through QPay' : 'by hand'})` };
      if (invoice.status !== 'paid') throw conflict(`The invoice is ${invoice.status}: only a paid invoice can be refunded`);
      const paymentIds = (invoice.paymentId ?? '').split(',').filter(Boolean);
      const settled: string[] = [];
      if (paymentIds.length > 0) {
        const client = await this.deps.qpay.forInvoice(invoice.environment);
        for (const paymentId of paymentIds) {
          try {
            await client.refundPayment(paymentId, note ?? `Refund of ${invoice.invoiceId}`);
          } catch (error) {
            // Refunded before (a retry after a crash): done. Settled: QPay cannot return it.
            if (error instanceof QpayError && error.code === 'PAYMENT_ALREADY_CANCELED') continue;
            if (error instanceof QpayError && error.code === 'PAYMENT_SETTLED') settled.push(paymentId);
            else throw qpayFailure(error);
          }
        }
      }
      const method = paymentIds.length > 0 && settled.length === 0 ? 'qpay' : 'by_hand';
      const message =
        method === 'qpay'
          ? `Refunded ${formatTugrik(invoice.amount)} through QPay`
          : paymentIds.length === 0
            ? `No QPay payment to refund (approved by hand): recorded as returned by hand by ${refundedBy}`
            : `QPay cannot return a bank transfer (PAYMENT_SETTLED): recorded as returned by hand by ${refundedBy}`;
      const refunded = await invoiceStore.markRefunded(this.deps.prisma, invoiceId, { by: refundedBy, method });
      await logStore.add(this.deps.prisma, { type: 'refund', reference: invoiceId, status: 'accepted', requestData: { refundedBy, paymentIds }, responseData: { method, settled }, errorMessage: null });
      return { invoice: refunded ?? invoice, message };
    });
    if (!turn.acquired) throw conflict('A refund of this invoice is already under way');
    return turn.result;
  }

  /**
   * Cancels a pending invoice at QPay, then here. QPay saying it was paid completes it instead
   * (the conflict names that); already cancelled at QPay is fine.
   */
  async cancel(invoice: QpayInvoice, reason: 'expired' | 'deleted'): Promise<QpayInvoice> {
    if (invoice.qpayInvoiceId) {
      try {
        await (await this.deps.qpay.forInvoice(invoice.environment)).cancelInvoice(invoice.qpayInvoiceId);
      } catch (error) {
        if (error instanceof QpayError && error.code === 'INVOICE_PAID') {
          const outcome = await this.check(invoice, `${reason}: QPay says paid`);
          throw conflict(outcome.completed || outcome.invoice.status === 'paid' ? 'QPay says this invoice was paid: it is now completed' : `QPay says this invoice was paid, but ${outcome.message}`);
        }
        if (!(error instanceof QpayError && error.code === 'INVOICE_ALREADY_CANCELED')) throw qpayFailure(error);
      }
    }
    const cancelled = await invoiceStore.markCancelled(this.deps.prisma, invoice.invoiceId, reason === 'deleted');
    if (!cancelled) {
      const now = await invoiceStore.find(this.deps.prisma, invoice.invoiceId);
      throw conflict(`The invoice is ${now?.status ?? 'gone'}: it cannot be cancelled`);
    }
    await logStore.add(this.deps.prisma, { type: reason === 'expired' ? 'expire' : 'delete', reference: invoice.invoiceId, status: 'accepted', requestData: { reason } });
    return cancelled;
  }
}
