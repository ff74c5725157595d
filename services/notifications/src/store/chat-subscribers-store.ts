import type { NotificationsDb } from './db';

/** Messenger's window for free-form messages after a subscriber's last message (external-apis.md §2). */
export const MESSAGING_WINDOW_MS = 24 * 3_600_000;

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
  async lastInteraction(db: NotificationsDb, subscriberId: string): Promise<Date | null> {
    return (await db.chatSubscriber.findUnique({ where: { subscriberId } }))?.lastInteractionAt ?? null;
  },
};
