import type { FastifyInstance } from 'fastify';
import { conflict, notFound, serveRoute } from '@bo/platform';
import { assignInvoiceKey, createStreamingInvoice, listStreamingInvoices } from '@bo/proto';
import { assignWaitingOrder } from '../operations/key-sales';
import { invoiceView, orderStore } from '../store/order-store';
import { keyView } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/** Streaming orders: the list, a new order with its QPay invoice, and Assign key for a paid order that waits for one. */
export function registerInvoiceRoutes(app: FastifyInstance, { prisma, outbox, orders }: StreamingKeysRouteDeps): void {
  serveRoute(app, listStreamingInvoices, async ({ query }) => ({ success: true, data: (await orderStore.list(prisma, query.status)).map(invoiceView) }));

  serveRoute(app, createStreamingInvoice, async ({ body }) => {
    const order = await orders.create({ ...body, months: body.duration });
    return { success: true, data: invoiceView(order) };
  });

  serveRoute(app, assignInvoiceKey, async ({ params }) => {
    const sale = await outbox.commit((tx, emit) => assignWaitingOrder(tx, emit, params.id));
    if (!sale) throw notFound('Invoice not found');
    if (sale.outcome === 'assigned') return { success: true, data: { invoice: invoiceView(sale.invoice), key: keyView(sale.key) } };
    if (sale.outcome === 'no_free_key') throw conflict(sale.invoice.attentionReason ?? 'No free key');
    const { invoice } = sale;
    throw conflict(invoice.key ? `This invoice already has its key (${invoice.key.key})` : `Only a paid invoice waiting for a key can be given one (this one is ${invoice.status})`);
  });
}
