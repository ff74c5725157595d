import type { Payer } from '@bo/proto';
import type { NotificationsDb } from './db';

export interface PaidPurchase {
  invoiceId: string;
  amount: number;
  paidAt: Date;
  /** The key order's service and months; null for a custom order (and a renewal's service). */
  service: string | null;
  duration: number | null;
  /** A renewal names its key from the start. */
  keyId: number | null;
  /** A custom order has nothing to deliver: it is complete once paid. */
  completed: boolean;
}

export interface KeyedPurchase {
  invoiceId: string;
  keyId: number;
  service: string;
  duration: number | null;
  amount: number | null;
  expiresAt: Date;
  subscriberId: string | null;
}

/**
 * Chat customers and their purchases (document 3's manychat_customers and manychat_purchases).
 * The paid event and the key event may arrive in either order: each writes what it knows and
 * neither undoes the other (a purchase completed by its key event stays completed).
 */
export const purchasesStore = {
  /** The customer of a chat subscriber, created or refreshed with what the payer told us; null without a subscriber. */
  async upsertCustomer(db: NotificationsDb, subscriberId: string | null, payer?: Pick<Payer, 'email' | 'name' | 'phone'>): Promise<number | null> {
    if (!subscriberId) return null;
    const known = { ...(payer?.email ? { email: payer.email } : {}), ...(payer?.name ? { name: payer.name } : {}), ...(payer?.phone ? { phone: payer.phone } : {}) };
    const customer = await db.manychatCustomer.upsert({ where: { facebookUserId: subscriberId }, create: { facebookUserId: subscriberId, ...known }, update: known, select: { id: true } });
    return customer.id;
  },

  async recordPaid(db: NotificationsDb, customerId: number | null, purchase: PaidPurchase): Promise<void> {
    const { invoiceId, amount, paidAt, service, duration, keyId, completed } = purchase;
    await db.manychatPurchase.upsert({
      where: { invoiceId },
      create: { invoiceId, customerId, amount, paidAt, service, duration, keyId, status: completed ? 'completed' : 'pending', completedAt: completed ? paidAt : null },
      update: { customerId, amount, paidAt, ...(service ? { service } : {}), ...(duration ? { duration } : {}), ...(keyId ? { keyId } : {}) },
    });
  },

  async completeWithKey(db: NotificationsDb, customerId: number | null, purchase: KeyedPurchase): Promise<void> {
    const { invoiceId, keyId, service, duration, amount, expiresAt } = purchase;
    const completion = { keyId, service, expiresAt, status: 'completed', completedAt: new Date() };
    await db.manychatPurchase.upsert({
      where: { invoiceId },
      create: { invoiceId, customerId, amount: amount ?? 0, duration, ...completion },
      update: { ...completion, ...(customerId ? { customerId } : {}), ...(duration ? { duration } : {}) },
    });
  },

  /** A reminder went out for this key and expiry date. */
  async markReminded(db: NotificationsDb, keyId: number, expiresAt: Date): Promise<void> {
    await db.manychatPurchase.updateMany({ where: { keyId, expiresAt }, data: { renewalNotificationSent: true } });
  },
};
