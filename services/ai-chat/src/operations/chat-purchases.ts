import { AppError, notFound, ServiceCallError, ServiceClient, serviceUnavailable, type IdentitySigner } from '@bo/platform';
import { createChatOrder } from '@bo/proto';
import type { PrismaClient } from '../generated/prisma/client';
import type { OfferedPurchase } from '../store/chat-turns-store';
import { purchaseIntentsStore } from '../store/purchase-intents-store';
import { sessionsStore } from '../store/sessions-store';

/** An invoice made for a chat purchase, as the chat shows it. */
export interface ChatInvoice {
  description: string;
  amount: number;
  paymentUrl: string;
}

/**
 * Purchases started in the chat (issue 21): collecting_details while the subscriber has a Buy
 * button, awaiting_payment once the invoice is made (by payments, at its listed price, once per
 * purchase however often the button is pressed), then paid (payments.invoice.paid) or expired.
 * The subscriber's session waits for the payment meanwhile (AWAITING_PAYMENT, then IDLE).
 */
export class ChatPurchases {
  private readonly payments: ServiceClient;

  constructor(private readonly deps: { prisma: PrismaClient; paymentsUrl: string; publicUrl: string; signer: IdentitySigner }) {
    // Made while ManyChat or a person's browser waits: the invoice must come quickly or not at all.
    this.payments = new ServiceClient({ baseUrl: deps.paymentsUrl, signer: deps.signer, timeoutMs: 6_000 });
  }

  /**
   * A Buy link for each product, each its own purchase waiting for the press: the purchases to
   * store with the answer that shows the links (chatTurnsStore.take), and the links by product.
   */
  offer(products: string[]): { offers: OfferedPurchase[]; links: Map<string, string> } {
    const offers = purchaseIntentsStore.newOffers(products);
    return { offers, links: new Map(offers.map((offer) => [offer.product, this.linkOf(offer.token)])) };
  }

  /** "buy <product>" in the chat: the purchase and its invoice at once. */
  async buyNow(userId: string, product: string): Promise<ChatInvoice> {
    const intent = await purchaseIntentsStore.start(this.deps.prisma, userId, product);
    return this.invoiceFor(intent);
  }

  /** A pressed Buy button: its invoice (made now, or the one made at the first press). */
  async open(token: string): Promise<ChatInvoice> {
    const intent = await purchaseIntentsStore.byToken(this.deps.prisma, token);
    if (!intent) throw notFound('Unknown purchase link');
    if (intent.paymentUrl && intent.invoiceId) return { description: intent.product, amount: intent.amount ?? 0, paymentUrl: intent.paymentUrl };
    if (intent.status !== 'collecting_details' || (intent.expiresAt && intent.expiresAt < new Date())) {
      throw new AppError(410, 'gone', 'This purchase link has expired: ask the price again in the chat');
    }
    return this.invoiceFor(intent);
  }

  private async invoiceFor(intent: { id: number; userId: string; product: string }): Promise<ChatInvoice> {
    let invoice;
    try {
      invoice = await this.payments.call(createChatOrder, {
        body: { reference: `chat-intent:${intent.id}`, product: intent.product, payer: { name: null, email: null, phone: null, subscriberId: intent.userId } },
      });
    } catch (error) {
      if (error instanceof ServiceCallError && error.status === 404) throw notFound(`${intent.product} can no longer be bought: it has no price in the price list`);
      throw serviceUnavailable('The invoice cannot be made right now: try again in a minute');
    }
    await this.deps.prisma.$transaction(async (tx) => {
      await purchaseIntentsStore.awaitingPayment(tx, intent.id, { invoiceId: invoice.invoiceId, amount: invoice.amount, paymentUrl: invoice.paymentUrl, expiresAt: new Date(invoice.expiresAt) });
      await sessionsStore.awaitingPayment(tx, intent.userId, { intentId: intent.id, invoiceId: invoice.invoiceId });
    });
    return { description: invoice.description, amount: invoice.amount, paymentUrl: invoice.paymentUrl };
  }

  private linkOf(token: string): string {
    return `${this.deps.publicUrl}/api/manychat/buy/${token}`;
  }
}
