import { AppError, ServiceCallError, ServiceClient, type IdentitySigner } from '@bo/platform';
import { createPaymentInvoice, getPaymentInvoice, refundPaymentInvoice, type InvoiceOrder, type Payer } from '@bo/proto';

export interface PaymentOrder {
  /** Unique per order: the same reference answers the invoice already made, never a second one at QPay. */
  reference: string;
  description: string;
  amount: number;
  payer: Payer;
  order: InvoiceOrder;
}

/** The invoice payments made: our id for it and its public payment page. */
export interface MadePayment {
  invoiceId: string;
  paymentUrl: string;
  /** pending, paid or cancelled (expired or deleted in payments). */
  status: string;
}

/** payments' internal invoice route (ADR 14: every order's money is a payments invoice). */
export class PaymentsClient {
  private readonly client: ServiceClient;

  constructor(options: { baseUrl: string; signer: IdentitySigner }) {
    // QPay may take its own timeout to answer payments; leave room for it.
    this.client = new ServiceClient({ baseUrl: options.baseUrl, signer: options.signer, timeoutMs: 30_000 });
  }

  async createInvoice(order: PaymentOrder): Promise<MadePayment> {
    const { invoice } = await this.client.call(createPaymentInvoice, { body: order });
    return { invoiceId: invoice.invoiceId, paymentUrl: invoice.paymentUrl, status: invoice.status };
  }

  /** Gives a paid invoice's money back (QPay's refund, or recorded as returned by hand); when and how it was done. */
  async refund(invoiceId: string, refundedBy: string): Promise<{ at: Date; message: string }> {
    const { invoice, message } = await this.client.call(refundPaymentInvoice, { params: { invoiceId }, body: { refundedBy } });
    return { at: new Date(invoice.refund?.at ?? Date.now()), message };
  }

  /** An invoice payments made; null when payments no longer shows it (deleted). */
  async invoice(invoiceId: string): Promise<MadePayment | null> {
    try {
      const { invoice } = await this.client.call(getPaymentInvoice, { params: { invoiceId } });
      return { invoiceId: invoice.invoiceId, paymentUrl: invoice.paymentUrl, status: invoice.status };
    } catch (error) {
      if (error instanceof ServiceCallError && error.status === 404) return null;
      throw error;
    }
  }
}

/**
 * What a caller is told when payments could not make the invoice: 503 while payments (or QPay
 * behind it) is unreachable or busy, otherwise 502, with payments' own reason.
 */
export function paymentsFailure(error: unknown): AppError {
  if (!(error instanceof ServiceCallError)) return new AppError(502, 'payments_failed', `Payments could not make the invoice: ${(error as Error).message}`);
  const status = error.status === 503 || error.status === 504 ? 503 : 502;
  return new AppError(status, 'payments_failed', `Payments could not make the invoice: ${error.message}`);
}
