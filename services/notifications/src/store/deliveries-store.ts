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
  messageTag: record.messageTag,
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

  /** The reminder's one message row: made at its first attempt, reset to pending at each later one. */
  async forReminder(db: NotificationsDb, reminderId: number, delivery: Omit<NewDelivery, 'reminderId' | 'kind'>): Promise<Delivery> {
    return db.delivery.upsert({
      where: { reminderId },
      create: { ...delivery, kind: 'renewal_reminder', reminderId, details: delivery.details ?? {} },
      update: { status: 'pending', subscriberId: delivery.subscriberId },
    });
  },

  find(db: NotificationsDb, id: number): Promise<Delivery | null> {
    return db.delivery.findUnique({ where: { id } });
  },

  async sent(db: NotificationsDb, id: number, outcome: { attempts: number; messageTag: string | null; text: string }): Promise<void> {
    await db.delivery.update({ where: { id }, data: { status: 'sent', attempts: outcome.attempts, messageTag: outcome.messageTag, sentText: outcome.text, lastError: null, sentAt: new Date() } });
  },

  /** A try that did not send: failed or opted_out decide it; pending leaves it for the next try, with the error seen. */
  async notSent(db: NotificationsDb, id: number, outcome: { attempts: number; error: string | null; status: 'failed' | 'opted_out' | 'pending' }): Promise<void> {
    await db.delivery.update({ where: { id }, data: { status: outcome.status, attempts: outcome.attempts, lastError: outcome.error } });
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
