import type { FastifyInstance } from 'fastify';
import { adminNameOf, conflict, notFound, serveRoute } from '@bo/platform';
import { approveInvoice, deleteInvoice } from '@bo/proto';
import { invoiceRecord, invoiceStore, logStore } from '../store/invoice-store';
import type { PaymentsRouteDeps } from './deps';

/** An admin's hand on an invoice: approve (paid through the same single transition) or delete (cancelled at QPay). */
export function registerAdminInvoiceRoutes(app: FastifyInstance, { prisma, desk, config }: PaymentsRouteDeps): void {
  const find = async (invoiceId: string) => (await invoiceStore.find(prisma, invoiceId)) ?? Promise.reject(notFound('Invoice not found'));

  serveRoute(app, approveInvoice, async ({ params, identity }) => {
    const approvedBy = adminNameOf(identity);
    const paid = await desk.complete(params.id, { paymentId: null, paymentPayload: null, approvedBy });
    if (!paid) throw conflict(`The invoice is ${(await find(params.id)).status}: only a pending invoice can be approved`);
    await logStore.add(prisma, { type: 'approve', reference: params.id, status: 'accepted', requestData: { approvedBy } });
    return { success: true, invoice: invoiceRecord(paid, config.PUBLIC_URL) };
  });

  serveRoute(app, deleteInvoice, async ({ params }) => {
    const invoice = await find(params.id);
    if (invoice.status === 'paid') throw conflict('A paid invoice cannot be deleted');
    if (invoice.status === 'pending') await desk.cancel(invoice, 'deleted');
    else await prisma.qpayInvoice.update({ where: { id: invoice.id }, data: { deletedAt: new Date() } });
    return { success: true };
  });
}
