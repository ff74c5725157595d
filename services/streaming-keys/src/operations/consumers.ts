/**
 * What streaming-keys does with other services' events, each in its inbox transaction (so a
 * duplicate delivery has no second effect): a paid order gets its key or its renewal, and a
 * reminder's outcome is folded into the key's notification status.
 */
import type { Logger } from '@bo/platform';
import { onEvent, type Outbox } from '@bo/platform/events';
import { notificationsReminderRecorded, paymentsInvoicePaid } from '@bo/proto';
import type { Prisma } from '../generated/prisma/client';
import { keyStore } from '../store/key-store';
import { sellForPaidOrder } from './key-sales';
import { enqueueIn } from './publish';
import { renewForPaidOrder } from './renewals';

export function paidOrderConsumer(outbox: Outbox<Prisma.TransactionClient>, logger: Logger) {
  return onEvent(paymentsInvoicePaid, async (tx: Prisma.TransactionClient, event) => {
    const { order } = event.payload;
    const publish = enqueueIn(outbox, tx);
    if (order.kind === 'streaming') {
      const sale = await sellForPaidOrder(tx, publish, event, order);
      if (sale.outcome === 'no_free_key' || sale.outcome === 'below_price') logger.warn({ invoiceId: event.payload.invoiceId, streamingInvoiceId: sale.invoice.id }, sale.invoice.attentionReason ?? sale.outcome);
    } else if (order.kind === 'renewal') {
      const renewed = await renewForPaidOrder(tx, publish, event.payload, order);
      if (!renewed) logger.warn({ invoiceId: event.payload.invoiceId, keyId: order.keyId }, 'a renewal was paid for a key that no longer exists');
    }
    // 'custom' orders are not keys.
  });
}

export const reminderConsumer = () =>
  onEvent(notificationsReminderRecorded, async (tx: Prisma.TransactionClient, event) => {
    const { keyId, expiresAt, status, attempts, at, error } = event.payload;
    await keyStore.recordReminder(tx, keyId, { expiresAt: new Date(expiresAt), status, attempts, at: new Date(at), error });
  });
