import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { createPaymentInvoice, getPaymentInvoice, refundPaymentInvoice } from '@bo/proto';
import { invoiceRecord, invoiceStore, invoiceView } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

/** What other services ask of payments: an invoice for their order (once per reference), its state, and its refund. */
export function registerInternalRoutes(app: FastifyInstance, { prisma, desk, config }: PaymentsRouteDeps): void {
  serveRoute(app, createPaymentInvoice, async ({ body }) => {
    const { invoice, created } = await desk.create(body);
    return { invoice: invoiceRecord(invoice, config.PUBLIC_URL), view: invoiceView(invoice), created };
  });

  serveRoute(app, getPaymentInvoice, async ({ params }) => {
    const invoice = await invoiceStore.find(prisma, params.invoiceId);
    if (!invoice) throw notFound('Invoice not found');
    return { invoice: invoiceRecord(invoice, config.PUBLIC_URL) };
  });

  serveRoute(app, refundPaymentInvoice, async ({ params, body }) => {
    const { invoice, message } = await desk.refund(params.invoiceId, body.refundedBy, body.note);
    return { invoice: invoiceRecord(invoice, config.PUBLIC_URL), message };
  });
}
