import { onEvent } from '@bo/platform/events';
import { paymentsInvoicePaid } from '@bo/proto';
import type { Prisma } from '../generated/prisma/client';
import { purchaseIntentsStore } from '../store/purchase-intents-store';
import { sessionsStore } from '../store/sessions-store';

/** A chat purchase is paid when its invoice is (payments.invoice.paid), and its subscriber's session is IDLE again; other invoices are not the chat's. */
export function purchasesConsumers() {
  return [
    onEvent(paymentsInvoicePaid, async (tx: Prisma.TransactionClient, event) => {
      const userId = await purchaseIntentsStore.paid(tx, event.payload.invoiceId);
      if (userId) await sessionsStore.paid(tx, userId, event.payload.invoiceId);
    }),
  ];
}
