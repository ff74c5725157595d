import type { FastifyInstance } from 'fastify';
import { notFound, serveRoute } from '@bo/platform';
import { createInvoice, invoicesOfUser, invoiceStatus, invoiceView as invoiceViewRoute, pendingInvoices, recentInvoices, recheckInvoice } from '@bo/proto';
import { invoiceRecord, invoiceStore, invoiceView, PAGE_CHECK_INTERVAL_MS } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

/** Invoices as admins make and list them, and as the public payment page reads one. */
export function registerInvoiceRoutes(app: FastifyInstance, { prisma, desk, config }: PaymentsRouteDeps): void {
  const record = (invoice: Parameters<typeof invoiceRecord>[0]) => invoiceRecord(invoice, config.PUBLIC_URL);
  const find = async (invoiceId: string) => (await invoiceStore.find(prisma, invoiceId)) ?? Promise.reject(notFound('Invoice not found'));

  /** The invoice as the page should show it: a pending one is checked with QPay at most every few seconds (a lost callback shows within one poll). */
  const freshInvoice = async (invoiceId: string) => {
    const invoice = await find(invoiceId);
    if (invoice.status !== 'pending' || !(await invoiceStore.claimCheck(prisma, invoiceId, PAGE_CHECK_INTERVAL_MS))) return invoice;
    // The page must answer even while QPay does not: the reconciliation will look again.
    return desk.check(invoice, 'payment page').then((outcome) => outcome.invoice, () => invoice);
  };

  serveRoute(app, createInvoice, async ({ body }) => {
    const { invoice } = await desk.create({
      reference: null,
      description: body.product_name,
      amount: body.amount,
      payer: { name: body.customer_name, email: body.customer_email ?? null, phone: body.customer_phone ?? null, subscriberId: body.subscriber_id ?? null },
      order: { kind: 'custom', productName: body.product_name },
    });
    return { success: true, invoiceId: invoice.invoiceId, paymentUrl: record(invoice).paymentUrl, invoice: invoiceView(invoice) };
  });

  serveRoute(app, invoiceViewRoute, async ({ params }) => invoiceView(await freshInvoice(params.invoiceId)));

  serveRoute(app, invoiceStatus, async ({ params }) => {
    const invoice = await freshInvoice(params.invoiceId);
    return { invoiceId: invoice.invoiceId, status: invoiceView(invoice).status, paidAt: invoice.paidAt?.toISOString() ?? null };
  });

  serveRoute(app, invoicesOfUser, async ({ params }) => ({ data: (await invoiceStore.ofUser(prisma, params.userId)).map(record) }));
  serveRoute(app, recentInvoices, async ({ query }) => ({ data: (await invoiceStore.recent(prisma, query.limit)).map(record) }));
  serveRoute(app, pendingInvoices, async () => ({ data: (await invoiceStore.pending(prisma)).map(record) }));

  serveRoute(app, recheckInvoice, async ({ params }) => {
    const outcome = await desk.check(await find(params.invoiceId), 'admin re-check');
    const message = outcome.completed ? `${outcome.message}: the order is completed` : outcome.message;
    return { invoice: record(outcome.invoice), paidAmount: outcome.paidAmount, message };
  });
}
