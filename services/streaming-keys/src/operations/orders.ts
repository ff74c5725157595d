import { badRequest } from '@bo/platform';
import { streamingServiceOf, type ServiceCode } from '@bo/proto';
import { paymentsFailure, type PaymentsClient } from '../clients/payments';
import type { PrismaClient } from '../generated/prisma/client';
import { orderStore, type InvoiceWithKey } from '../store/order-store';
import { pricingStore } from '../store/pricing-store';

export interface NewOrder {
  email: string;
  service: ServiceCode;
  months: number;
  amount?: number;
  customerName?: string;
  phoneNumber?: string;
  subscriberId?: string;
}

/**
 * An admin's streaming order (ADR 14): written here first, then its QPay invoice made through
 * payments with the reference `streaming-invoice:<id>` (a retried call answers the same
 * invoice). When payments cannot make it the order is FAILED and the caller gets a 502/503.
 */
export class Orders {
  constructor(private readonly deps: { prisma: PrismaClient; payments: PaymentsClient }) {}

  async create(input: NewOrder): Promise<InvoiceWithKey> {
    const { prisma, payments } = this.deps;
    const name = streamingServiceOf(input.service).name;
    const amount = input.amount ?? (await pricingStore.priceOf(prisma, input.service, input.months));
    if (amount === null) throw badRequest(`No price for ${name} ${input.months} month(s): add it on the Pricing tab or enter an amount`, [{ field: 'amount', message: 'Amount is required' }]);
    if (amount === 0) throw badRequest('A payment invoice needs an amount of more than 0', [{ field: 'amount', message: 'Amount must be more than 0' }]);
    const productName = `${name} ${input.months} сар`;
    const payer = { name: input.customerName ?? null, email: input.email, phone: input.phoneNumber ?? null, subscriberId: input.subscriberId ?? null };
    const order = await orderStore.create(prisma, {
      email: input.email, serviceCode: input.service, duration: input.months, amount, customerName: payer.name, phoneNumber: payer.phone, subscriberId: payer.subscriberId, platform: 'admin', productName,
    });
    let made;
    try {
      made = await payments.createInvoice({
        reference: `streaming-invoice:${order.id}`,
        description: productName,
        amount,
        payer,
        order: { kind: 'streaming', serviceCode: input.service, months: input.months, email: input.email, streamingInvoiceId: order.id },
      });
    } catch (error) {
      const failure = paymentsFailure(error);
      await orderStore.markFailed(prisma, order.id, failure.message);
      throw failure;
    }
    return orderStore.attachPayment(prisma, order.id, made.invoiceId, made.paymentUrl);
  }
}
