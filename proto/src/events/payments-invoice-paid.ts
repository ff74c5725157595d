import { z } from 'zod';
import { defineEvent } from '../envelope';
import { invoiceOrderSchema, payerSchema } from '../money';

/**
 * An invoice moved from pending to paid, once (ADR 14): after QPay's payment check confirmed the
 * full amount, or an admin approved it. An invoice is paid only once, so its revision is always 1.
 */
export const paymentsInvoicePaid = defineEvent({
  name: 'payments.invoice.paid',
  version: 1,
  payload: z.object({
    invoiceId: z.string().min(1),
    revision: z.literal(1),
    amount: z.number().int().nonnegative(),
    description: z.string(),
    paidAt: z.string(),
    /** QPay's payment id; null when an admin approved without one. */
    paymentId: z.string().nullable(),
    /** The admin's e-mail when approved by hand; null when QPay confirmed it. */
    approvedBy: z.string().nullable(),
    payer: payerSchema,
    order: invoiceOrderSchema,
  }),
  entity: { name: 'invoice', key: 'invoiceId', revision: 'revision' },
  example: {
    invoiceId: 'INV-7K3Q9X2M4P', revision: 1, amount: 35000, description: 'Netflix 1 сар', paidAt: '2026-11-23T08:00:00.000Z',
    paymentId: '459812345678901', approvedBy: null,
    payer: { name: 'Бат-Эрдэнэ', email: 'bat@example.mn', phone: '99112233', subscriberId: '1234567' },
    order: { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'bat@example.mn', streamingInvoiceId: 12 },
  },
});
