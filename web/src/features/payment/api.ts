/** The public payment page's one call. Its shape is the route contract's (types only: no zod in the bundle). */
import type { invoiceView, ReplyOf } from '@bo/proto';
import { apiKey, apiPath } from '../../lib/paths';

export type InvoiceView = ReplyOf<typeof invoiceView>;
export type InvoiceStatus = InvoiceView['status'];
export type BankLink = InvoiceView['paymentUrls'][number];

/** Document 3 §4 and §9: the page asks for the invoice every 3000 ms, and only while it is pending. */
export const PAYMENT_POLL_MS = 3000;

export const paymentKeys = {
  invoice: (invoiceId: string) => apiKey('/api/qpay/invoice', invoiceId),
};

export const paymentPaths = {
  invoice: (invoiceId: string) => apiPath('/api/qpay/invoice/:invoiceId', { invoiceId }),
};
