import type { AiChatDb } from './db';

/** One row per chat subscriber: their name and how many messages they wrote when; the only place that touches user_chat_history. */
export const subscribersStore = {
  /** Counts a message the subscriber wrote; answers their message count so far (the event's revision). */
  async wrote(db: AiChatDb, userId: string, firstName: string | null, at: Date): Promise<number> {
    const row = await db.userChatHistory.upsert({
      where: { userId },
      create: { userId, firstName, messageCount: 1, firstMessageAt: at, lastMessageAt: at },
      update: { messageCount: { increment: 1 }, lastMessageAt: at, ...(firstName ? { firstName } : {}) },
    });
    return row.messageCount;
  },
};
