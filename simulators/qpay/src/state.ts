import { randomInt } from 'node:crypto';

/** Production and sandbox are the same API on different bases; tokens of one do not work on the other. */
export type QpayEnv = 'production' | 'sandbox';
export type CallbackMethod = 'get' | 'post' | 'none';

/** Behaviour switches; each (unverified) fact of the reference doc is a choice here. */
export interface QpayOptions {
  clients: { clientId: string; clientSecret: string }[];
  /** invoice_code values QPay issued to the merchant(s). */
  invoiceCodes: string[];
  merchantName: string;
  merchantCity: string;
  /** Access-token lifetime; expires_in is now + this, as absolute epoch seconds. */
  tokenTtlSeconds: number;
  refreshTtlSeconds: number;
  /** Status of a fully paid invoice: CLOSED per the Go SDK, PAID per other sources. */
  paidStatus: 'CLOSED' | 'PAID';
  badBasicError: 'AUTHENTICATION_FAILED' | 'CLIENT_NOTFOUND';
  /** QPay's own spelling NO_CREDENDIALS, or NO_CREDENTIALS as one SDK reports for production. */
  noCredentialsError: 'NO_CREDENDIALS' | 'NO_CREDENTIALS';
  /** HTTP status for INVOICE_NOTFOUND / PAYMENT_NOTFOUND. */
  notFoundStatus: 400 | 404;
  /** HTTP status for INVOICE_PAID / INVOICE_ALREADY_CANCELED. */
  cancelErrorStatus: number;
  /** How a payment is announced when the pay route does not say. */
  defaultCallback: CallbackMethod;
  callbackTimeoutMs: number;
}

export const defaultQpayOptions = (): QpayOptions => ({
  clients: [{ clientId: 'TEST_MERCHANT', clientSecret: '123456' }],
  invoiceCodes: ['TEST_INVOICE'],
  merchantName: 'BO DIGITAL SHOP',
  merchantCity: 'ULAANBAATAR',
  tokenTtlSeconds: 86_400,
  refreshTtlSeconds: 172_800,
  paidStatus: 'CLOSED',
  badBasicError: 'AUTHENTICATION_FAILED',
  noCredentialsError: 'NO_CREDENDIALS',
  notFoundStatus: 404,
  cancelErrorStatus: 400,
  defaultCallback: 'get',
  callbackTimeoutMs: 10_000,
});

export interface IssuedToken {
  token: string;
  kind: 'access' | 'refresh';
  env: QpayEnv;
  clientId: string;
  expiresAtMs: number;
  revoked: boolean;
}

export interface InvoiceLine {
  line_description: string;
  line_quantity: number;
  line_unit_price: number;
  sender_product_code?: string;
  tax_product_code?: string;
  note?: string;
}

export interface Payment {
  paymentId: string;
  invoiceId: string;
  amount: number;
  paidAt: string;
  /** P2P: a bank transfer (settled at once, QPay cannot refund it); CARD: a card payment QPay can refund. */
  type: 'P2P' | 'CARD';
  bankCode: string;
  bankName: string;
  accountNumber: string;
  /** Set by DELETE /payment/refund/{id}. */
  refundedAt?: string;
}

export interface Invoice {
  invoiceId: string;
  env: QpayEnv;
  clientId: string;
  invoiceCode: string;
  senderInvoiceNo: string;
  senderBranchCode: string | null;
  receiverCode: string;
  description: string;
  amount: number;
  callbackUrl: string;
  allowPartial: boolean;
  minimumAmount: number | null;
  allowExceed: boolean;
  maximumAmount: number | null;
  note: string | null;
  lines: InvoiceLine[];
  qrText: string;
  shortCode: string;
  /** SETTLED shows as options.paidStatus. */
  status: 'OPEN' | 'SETTLED' | 'CANCELED';
  createdAt: string;
  payments: Payment[];
}

/** One call to the merchant's callback_url and what the merchant answered. */
export interface CallbackDelivery {
  id: number;
  invoiceId: string;
  paymentId: string;
  method: 'GET' | 'POST';
  url: string;
  copy: number;
  at: string;
  status?: number;
  body?: string;
  error?: string;
  ms?: number;
}

/** A numeric string of 15 digits, like QPay's payment ids. */
export function paymentIdNumber(): string {
  return `${randomInt(100_000, 999_999)}${randomInt(100_000_000, 999_999_999)}`;
}

export class QpayState {
  options: QpayOptions;
  tokens = new Map<string, IssuedToken>();
  invoices = new Map<string, Invoice>();
  callbacks: CallbackDelivery[] = [];
  private nextCallbackId = 1;

  constructor(private readonly initial: Partial<QpayOptions> = {}) {
    this.options = { ...defaultQpayOptions(), ...initial };
  }

  reset(): void {
    this.options = { ...defaultQpayOptions(), ...this.initial };
    this.tokens.clear();
    this.invoices.clear();
    this.callbacks = [];
    this.nextCallbackId = 1;
  }

  /** Status as the API shows it: the paid word is an option. */
  statusOf(invoice: Invoice): string {
    return invoice.status === 'SETTLED' ? this.options.paidStatus : invoice.status;
  }

  paidAmount(invoice: Invoice): number {
    return invoice.payments.reduce((sum, p) => sum + p.amount, 0);
  }

  findPayment(paymentId: string): Payment | undefined {
    for (const invoice of this.invoices.values()) {
      const payment = invoice.payments.find((p) => p.paymentId === paymentId);
      if (payment) return payment;
    }
    return undefined;
  }

  /** Revokes live tokens of a kind (both when omitted); answers how many. */
  revokeTokens(kind?: 'access' | 'refresh'): number {
    let count = 0;
    for (const token of this.tokens.values()) {
      if (!token.revoked && (!kind || token.kind === kind)) {
        token.revoked = true;
        count += 1;
      }
    }
    return count;
  }

  recordCallback(entry: Omit<CallbackDelivery, 'id'>): CallbackDelivery {
    const delivery = { id: this.nextCallbackId++, ...entry };
    this.callbacks.unshift(delivery);
    if (this.callbacks.length > 500) this.callbacks.length = 500;
    return delivery;
  }
}
