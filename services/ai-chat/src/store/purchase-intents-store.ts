import { randomBytes } from 'node:crypto';
import type { PurchaseIntentStatus } from '@bo/proto';
import type { OfferedPurchase } from './chat-turns-store';
import type { AiChatDb } from './db';

/** How long a Buy button works before it was pressed (a price answer is not an offer for ever). */
export const BUY_LINK_LIFETIME_MS = 24 * 3_600_000;

/**
 * A Buy link's secret part: 128 random bits, so a purchase is opened only from the chat it was
 * sent to. Taken from random bytes drawn 4 KiB at a time, each byte used once: one draw serves
 * 256 links (a price answer makes up to five; a draw each cost about 20 µs of the webhook's time).
 */
let randomPool = Buffer.alloc(0);
let randomUsed = 0;
function newToken(): string {
  if (randomUsed + 16 > randomPool.length) {
    randomPool = randomBytes(4_096);
    randomUsed = 0;
  }
  randomUsed += 16;
  return randomPool.toString('base64url', randomUsed - 16, randomUsed);
}

/** The chat's purchases (those its price answers offer are stored with the answer, by chatTurnsStore.take). */
export const purchaseIntentsStore = {
  /**
   * New purchases waiting for their details (the press of Buy), one a product, each with its own
   * link; not yet stored: chatTurnsStore.take stores them with the answer that shows them.
   */
  newOffers(products: string[], now = new Date()): OfferedPurchase[] {
    const expiresAt = new Date(now.getTime() + BUY_LINK_LIFETIME_MS);
    return products.map((product) => ({ product, token: newToken(), expiresAt }));
  },

  start(db: AiChatDb, userId: string, product: string, now = new Date()) {
    return db.purchaseIntent.create({ data: { userId, product, token: newToken(), expiresAt: new Date(now.getTime() + BUY_LINK_LIFETIME_MS) } });
  },

  byToken(db: AiChatDb, token: string) {
    return db.purchaseIntent.findUnique({ where: { token } });
  },

  /** The invoice made for it: the purchase now waits for the payment (until the invoice expires). */
  awaitingPayment(db: AiChatDb, id: number, invoice: { invoiceId: string; amount: number; paymentUrl: string; expiresAt: Date }) {
    return db.purchaseIntent.update({ where: { id }, data: { status: 'awaiting_payment' satisfies PurchaseIntentStatus, ...invoice } });
  },

  /** The invoice was paid: its purchase (if the chat made it) is paid; answers the purchase's subscriber, or null. */
  async paid(db: AiChatDb, invoiceId: string): Promise<string | null> {
    const intent = await db.purchaseIntent.findUnique({ where: { invoiceId } });
    if (!intent) return null;
    await db.purchaseIntent.update({ where: { id: intent.id }, data: { status: 'paid' satisfies PurchaseIntentStatus } });
    return intent.userId;
  },

  /** Purchases whose link or invoice ran out before a payment: expired. */
  async expire(db: AiChatDb, now = new Date()): Promise<number> {
    const { count } = await db.purchaseIntent.updateMany({
      where: { status: { in: ['collecting_details', 'awaiting_payment'] satisfies PurchaseIntentStatus[] }, expiresAt: { lt: now } },
      data: { status: 'expired' satisfies PurchaseIntentStatus },
    });
    return count;
  },
};
