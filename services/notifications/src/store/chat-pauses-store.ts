import type { NotificationsDb } from './db';

/** A person's takeover of subscribers' chats, as ai-chat announced it; the only place that touches chat_pauses. */
export const chatPausesStore = {
  /** Keeps the newest change: an older event arriving late changes nothing. */
  async changed(db: NotificationsDb, subscriberId: string, change: { paused: boolean; pausedUntil: Date | null; revision: number }): Promise<void> {
    const data = { paused: change.paused, pausedUntil: change.pausedUntil, revision: BigInt(change.revision) };
    await db.chatPause.upsert({ where: { subscriberId }, create: { subscriberId, ...data }, update: {} });
    await db.chatPause.updateMany({ where: { subscriberId, revision: { lt: data.revision } }, data });
  },

  /** Whether a person has the subscriber's chat now (a pause whose end has passed no longer counts). */
  async isPaused(db: NotificationsDb, subscriberId: string, now = new Date()): Promise<boolean> {
    const pause = await db.chatPause.findUnique({ where: { subscriberId } });
    return pause !== null && pause.paused && (pause.pausedUntil === null || pause.pausedUntil > now);
  },
};
