import type { AiChatDb } from './db';

/**
 * How often notifications is told that a subscriber is writing. Its window is 24 h, so a record
 * up to this late only makes it treat the window as closed a little early; and a message it holds
 * (outside the window, so after more than a day of silence) is always released by the next message,
 * which comes long after the last announcement.
 */
export const ANNOUNCE_EVERY_MS = 10 * 60_000;

/** One row per chat subscriber: their name and how many messages they wrote when (counted by chatTurnsStore.take, on the webhook's hot path). */
export const subscribersStore = {
  /**
   * Marks the subscriber announced at `at` if they were still due (chatTurnsStore.take tells when):
   * true for the one caller that should tell notifications, false for a concurrent message that
   * found it done meanwhile.
   */
  async announced(db: AiChatDb, userId: string, at: Date): Promise<boolean> {
    const { count } = await db.userChatHistory.updateMany({
      where: { userId, OR: [{ announcedAt: null }, { announcedAt: { lt: new Date(at.getTime() - ANNOUNCE_EVERY_MS) } }] },
      data: { announcedAt: at },
    });
    return count > 0;
  },

  /** The next message is told to notifications whenever it comes (a person handed the chat back: what was held goes then). */
  async announceNext(db: AiChatDb, userId: string): Promise<void> {
    await db.userChatHistory.updateMany({ where: { userId }, data: { announcedAt: null } });
  },
};
