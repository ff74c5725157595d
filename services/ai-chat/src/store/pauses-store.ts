import type { AiChatDb } from './db';

/** Human takeover: the subscribers a person is talking to; the only place that touches automation_pauses. */
export const pausesStore = {
  pause(db: AiChatDb, userId: string, data: { pausedUntil: Date | null; pausedBy: string; reason: string | null }) {
    return db.automationPause.upsert({ where: { userId }, create: { userId, ...data }, update: { ...data, createdAt: new Date() } });
  },

  async resume(db: AiChatDb, userId: string): Promise<void> {
    await db.automationPause.deleteMany({ where: { userId } });
  },

  /** The pauses of these subscribers that still last, by subscriber. */
  async lasting(db: AiChatDb, userIds: string[], now = new Date()) {
    const rows = await db.automationPause.findMany({ where: { userId: { in: userIds }, OR: [{ pausedUntil: null }, { pausedUntil: { gt: now } }] } });
    return new Map(rows.map((row) => [row.userId, row]));
  },

  /** Whether automation is paused for the subscriber now (a pause with an end in the past no longer counts). */
  async isPaused(db: AiChatDb, userId: string, now = new Date()): Promise<boolean> {
    const pause = await db.automationPause.findUnique({ where: { userId } });
    return pause !== null && (pause.pausedUntil === null || pause.pausedUntil > now);
  },
};
