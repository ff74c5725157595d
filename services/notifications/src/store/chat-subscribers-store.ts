import type { NotificationsDb } from './db';
import type { Prisma } from '../generated/prisma/client';

/** Messenger's window for free-form messages after a subscriber's last message (external-apis.md §2). */
export const MESSAGING_WINDOW_MS = 24 * 3_600_000;

/** When a subscriber last wrote, and their message count then (grows with every message). */
export interface LastInteraction {
  at: Date;
  revision: number;
}

/** When each chat subscriber last wrote; the only place that touches chat_subscribers. */
export const chatSubscribersStore = {
  /** Keeps the newest interaction: an older event arriving late changes nothing. */
  async wrote(db: NotificationsDb, subscriberId: string, at: Date, revision: number): Promise<void> {
    await db.chatSubscriber.upsert({
      where: { subscriberId },
      create: { subscriberId, lastInteractionAt: at, revision },
      update: {},
    });
    await db.chatSubscriber.updateMany({ where: { subscriberId, revision: { lt: revision } }, data: { lastInteractionAt: at, revision } });
  },

  /** When the subscriber last wrote; null when the chat never told us. */
  async lastInteraction(db: NotificationsDb, subscriberId: string): Promise<LastInteraction | null> {
    const row = await db.chatSubscriber.findUnique({ where: { subscriberId } });
    return row ? { at: row.lastInteractionAt, revision: row.revision } : null;
  },

  /**
   * Holds the subscriber until the transaction ends (a row may not exist yet, so an advisory lock),
   * and answers their last interaction as it is then. Recording that they wrote and holding a
   * message for them both take it, so neither misses the other.
   */
  async lock(tx: Prisma.TransactionClient, subscriberId: string): Promise<LastInteraction | null> {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('notifications.chat-subscriber'), hashtext($1))`, subscriberId);
    return chatSubscribersStore.lastInteraction(tx, subscriberId);
  },
};
