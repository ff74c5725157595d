import type { Delivery as DeliveryView } from '@bo/proto';
import type { Delivery, Prisma } from '../generated/prisma/client';
import type { NotificationsDb } from './db';

export type DeliveryKind = DeliveryView['kind'];
export type DeliveryStatus = DeliveryView['status'];
export type DeliveryRecord = Delivery;

export interface NewDelivery {
  kind: DeliveryKind;
  subscriberId: string;
  eventId?: string;
  reminderId?: number;
  keyId?: number | null;
  invoiceId?: string | null;
  details?: Prisma.InputJsonValue;
}

export const deliveryView = (record: Delivery): DeliveryView => ({
  id: record.id,
  kind: record.kind as DeliveryKind,
  subscriberId: record.subscriberId,
  keyId: record.keyId,
  invoiceId: record.invoiceId,
  status: record.status as DeliveryStatus,
  attempts: record.attempts,
  lastError: record.lastError,
  templateName: record.templateName,
  sentText: record.sentText,
  createdAt: record.createdAt.toISOString(),
  sentAt: record.sentAt?.toISOString() ?? null,
});

/** One row per chat message: recorded pending (in the consumer's transaction), then sent, failed or opted out. */
export const deliveriesStore = {
  async create(db: NotificationsDb, delivery: NewDelivery): Promise<Delivery> {
    const { details, ...rest } = delivery;
    return db.delivery.create({ data: { ...rest, details: details ?? {} } });
  },

  /** The reminder's one message row (with the expiry it is about): made at its first attempt, reset to pending at each later one. */
  async forReminder(db: NotificationsDb, reminderId: number, delivery: { subscriberId: string; keyId: number; expiresAt: Date }): Promise<Delivery> {
    const { subscriberId, keyId, expiresAt } = delivery;
    return db.delivery.upsert({
      where: { reminderId },
      create: { kind: 'renewal_reminder', reminderId, subscriberId, keyId, details: { expiresAt: expiresAt.toISOString() } },
      update: { status: 'pending', subscriberId },
    });
  },

  find(db: NotificationsDb, id: number): Promise<Delivery | null> {
    return db.delivery.findUnique({ where: { id } });
  },

  async sent(db: NotificationsDb, id: number, outcome: { attempts: number; templateName: string | null; text: string }): Promise<void> {
    await db.delivery.update({ where: { id }, data: { status: 'sent', attempts: outcome.attempts, templateName: outcome.templateName, sentText: outcome.text, lastError: null, sentAt: new Date() } });
  },

  /**
   * A try that did not send: failed or opted_out decide it; held waits for the subscriber to write;
   * pending leaves it for the next try. The error (or why it is held) is kept.
   */
  async notSent(db: NotificationsDb, id: number, outcome: { attempts: number; error: string | null; status: 'failed' | 'opted_out' | 'held' | 'pending' }): Promise<void> {
    await db.delivery.update({ where: { id }, data: { status: outcome.status, attempts: outcome.attempts, lastError: outcome.error } });
  },

  /**
   * The subscriber's held messages, moved back to pending in one statement and answered: a second
   * event (or replica) for the same subscriber finds none left, so each goes out once.
   */
  async releaseHeld(db: NotificationsDb, subscriberId: string): Promise<number[]> {
    const released = await db.delivery.updateManyAndReturn({ where: { subscriberId, status: 'held' }, data: { status: 'pending' }, select: { id: true } });
    return released.map((row) => row.id);
  },

  /** The held messages of one kind (a template for it was just saved), moved back to pending and answered, each once as above. */
  async releaseHeldOfKind(db: NotificationsDb, kind: DeliveryKind): Promise<number[]> {
    const released = await db.delivery.updateManyAndReturn({ where: { kind, status: 'held' }, data: { status: 'pending' }, select: { id: true } });
    return released.map((row) => row.id);
  },

  async list(db: NotificationsDb, filter: { kind?: DeliveryKind; status?: DeliveryStatus; limit: number }): Promise<DeliveryView[]> {
    const rows = await db.delivery.findMany({
      where: { ...(filter.kind ? { kind: filter.kind } : {}), ...(filter.status ? { status: filter.status } : {}) },
      orderBy: { id: 'desc' },
      take: filter.limit,
    });
    return rows.map(deliveryView);
  },
};
