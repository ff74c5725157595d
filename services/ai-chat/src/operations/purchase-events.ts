import { onEvent } from '@bo/platform/events';
import { paymentsInvoicePaid } from '@bo/proto';
import type { Prisma } from '../generated/prisma/client';
import { purchaseIntentsStore } from '../store/purchase-intents-store';

/** A chat purchase is paid when its invoice is (payments.invoice.paid); other invoices are not the chat's. */
export function purchasesConsumers() {
  return [
    onEvent(paymentsInvoicePaid, async (tx: Prisma.TransactionClient, event) => {
      await purchaseIntentsStore.paid(tx, event.payload.invoiceId);
    }),
  ];
}
