import type { AiChatDb } from './db';

/**
 * How often notifications is told that a subscriber is writing. Its window is 24 h, so a record
 * up to this late only makes it treat the window as closed a little early; and a message it holds
 * (outside the window, so after more than a day of silence) is always released by the next message,
 * which comes long after the last announcement.
 */
export const ANNOUNCE_EVERY_MS = 10 * 60_000;

/** One row per chat subscriber: their name and how many messages they wrote when; the only place that touches user_chat_history. */
export const subscribersStore = {
  /**
   * Counts a message the subscriber wrote; answers their message count so far (the event's
   * revision) and whether notifications is to be told now (not told for ANNOUNCE_EVERY_MS).
   */
  async wrote(db: AiChatDb, userId: string, firstName: string | null, at: Date): Promise<{ messageCount: number; announce: boolean }> {
    const row = await db.userChatHistory.upsert({
      where: { userId },
      create: { userId, firstName, messageCount: 1, firstMessageAt: at, lastMessageAt: at, announcedAt: at },
      update: { messageCount: { increment: 1 }, lastMessageAt: at, ...(firstName ? { firstName } : {}) },
    });
    if (row.messageCount === 1) return { messageCount: 1, announce: true };
    const { count } = await db.userChatHistory.updateMany({
      where: { userId, OR: [{ announcedAt: null }, { announcedAt: { lt: new Date(at.getTime() - ANNOUNCE_EVERY_MS) } }] },
      data: { announcedAt: at },
    });
    return { messageCount: row.messageCount, announce: count > 0 };
  },

  /** The next message is told to notifications whenever it comes (a person handed the chat back: what was held goes then). */
  async announceNext(db: AiChatDb, userId: string): Promise<void> {
    await db.userChatHistory.updateMany({ where: { userId }, data: { announcedAt: null } });
  },
};
