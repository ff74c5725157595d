import { randomBytes } from 'node:crypto';
import type { PurchaseIntentStatus } from '@bo/proto';
import type { AiChatDb } from './db';

/** How long a Buy button works before it was pressed (a price answer is not an offer for ever). */
export const BUY_LINK_LIFETIME_MS = 24 * 3_600_000;

/** The chat's purchases; the only place that touches purchase_intents. */
export const purchaseIntentsStore = {
  /** New purchases waiting for their details (the press of Buy), one a product, each with its own link. */
  async startMany(db: AiChatDb, userId: string, products: string[], now = new Date()) {
    const expiresAt = new Date(now.getTime() + BUY_LINK_LIFETIME_MS);
    const rows = products.map((product) => ({ userId, product, token: randomBytes(16).toString('base64url'), expiresAt }));
    if (rows.length > 0) await db.purchaseIntent.createMany({ data: rows });
    return rows;
  },

  start(db: AiChatDb, userId: string, product: string, now = new Date()) {
    return db.purchaseIntent.create({ data: { userId, product, token: randomBytes(16).toString('base64url'), expiresAt: new Date(now.getTime() + BUY_LINK_LIFETIME_MS) } });
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
