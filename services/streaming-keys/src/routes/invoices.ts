import type { FastifyInstance } from 'fastify';
import { AppError, ServiceCallError, adminNameOf, conflict, notFound, serveRoute } from '@bo/platform';
import { assignInvoiceKey, createStreamingInvoice, listStreamingInvoices, refundStreamingInvoice } from '@bo/proto';
import { assignWaitingOrder } from '../operations/key-sales';
import { invoiceView, orderStore } from '../store/order-store';
import { keyView } from '../store/key-store';
import type { StreamingKeysRouteDeps } from './deps';

/** A refund may wait for QPay (payments' own timeouts); a press waits that long for its turn. */
const TURN_WAIT_MS = 60_000;

/**
 * Streaming orders: the list, a new order with its QPay invoice, and for a paid order that waits
 * for an admin: Assign key (the approval, for one paid below its price) or Refund.
 */
export function registerInvoiceRoutes(app: FastifyInstance, { prisma, outbox, orders, payments, lock }: StreamingKeysRouteDeps): void {
  /**
   * Assign key and Refund on one order take turns (across replicas): a key is never given to an
   * order whose money is going back. A press waits for the one before it, then sees its outcome.
   */
  const inTurn = async <T>(id: number, work: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + TURN_WAIT_MS;
    for (;;) {
      const turn = await lock.withLock(`streaming-order:${id}`, TURN_WAIT_MS, work);
      if (turn.acquired) return turn.result;
      if (Date.now() > deadline) throw conflict('Another action on this order is still under way: try again in a moment');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  serveRoute(app, listStreamingInvoices, async ({ query }) => ({ success: true, data: (await orderStore.list(prisma, query.status)).map(invoiceView) }));

  serveRoute(app, createStreamingInvoice, async ({ body }) => {
    const order = await orders.create({ ...body, months: body.duration });
    return { success: true, data: invoiceView(order) };
  });

  serveRoute(app, assignInvoiceKey, async ({ params, identity }) => {
    const sale = await inTurn(params.id, () => outbox.commit((tx, emit) => assignWaitingOrder(tx, emit, params.id, adminNameOf(identity))));
    if (!sale) throw notFound('Invoice not found');
    if (sale.outcome === 'assigned') return { success: true, data: { invoice: invoiceView(sale.invoice), key: keyView(sale.key) } };
    if (sale.outcome === 'no_free_key') throw conflict(sale.invoice.attentionReason ?? 'No free key');
    const { invoice } = sale;
    throw conflict(invoice.key ? `This invoice already has its key (${invoice.key.key})` : `Only a paid invoice waiting for a key can be given one (this one is ${invoice.status})`);
  });

  serveRoute(app, refundStreamingInvoice, async ({ params, identity }) =>
    inTurn(params.id, async () => {
      const order = await orderStore.find(prisma, params.id);
      if (!order) throw notFound('Invoice not found');
      if (order.status !== 'NEEDS_ATTENTION' || !order.invoiceId) throw conflict(`Only a paid order waiting for an admin can be refunded (this one is ${order.status})`);
      const admin = adminNameOf(identity);
      let refund;
      try {
        refund = await payments.refund(order.invoiceId, admin);
      } catch (error) {
        if (error instanceof ServiceCallError) throw new AppError(error.status === 503 || error.status === 504 ? 503 : error.status === 409 ? 409 : 502, 'refund_failed', `Payments could not refund ${order.invoiceId}: ${error.message}`);
        throw error;
      }
      const closed = await orderStore.markRefunded(prisma, order.id, { at: refund.at, by: admin, reason: refund.message });
      if (!closed) throw conflict('The order changed while it was being refunded: reload it');
      return { success: true, data: invoiceView(closed), message: refund.message };
    }),
  );
}
