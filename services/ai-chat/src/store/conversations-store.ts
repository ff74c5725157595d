import type { AiChatDb } from './db';

/** How an answer was made, kept with it (null for the subscriber's own message). */
export type AnswerSource = 'price' | 'purchase' | 'flow' | 'ai' | 'holding' | 'fallback' | 'merged';

/** How long conversations are kept (document 2 §9: cleanup removes those older than 7 days). */
export const CONVERSATION_RETENTION_MS = 7 * 24 * 3_600_000;

/** Each subscriber's messages and our answers; the only place that touches conversations. */
export const conversationsStore = {
  add(db: AiChatDb, userId: string, role: 'user' | 'assistant', content: string, source: AnswerSource | null = null) {
    return db.conversation.create({ data: { userId, role, content, source } });
  },

  /** The subscribers most recently active, newest first, with when they last wrote or were answered. */
  async latestSubscribers(db: AiChatDb, limit: number) {
    const groups = await db.conversation.groupBy({ by: ['userId'], _max: { timestamp: true }, orderBy: { _max: { timestamp: 'desc' } }, take: limit });
    return groups.map((group) => ({ userId: group.userId, lastActivity: group._max.timestamp ?? new Date(0) }));
  },

  /** Removes one subscriber's history; answers how many messages went. */
  async deleteFor(db: AiChatDb, userId: string): Promise<number> {
    return (await db.conversation.deleteMany({ where: { userId } })).count;
  },

  /** Removes every message older than the retention (7 days); answers how many went. */
  async deleteOlderThan(db: AiChatDb, cutoff: Date): Promise<number> {
    return (await db.conversation.deleteMany({ where: { timestamp: { lt: cutoff } } })).count;
  },

  /** Whether the subscriber wrote again after message `id` (a burst goes on). */
  async wroteAfter(db: AiChatDb, userId: string, id: bigint): Promise<boolean> {
    return (await db.conversation.count({ where: { userId, role: 'user', id: { gt: id } } })) > 0;
  },

  /** The subscriber's last `limit` messages, oldest first (the AI's context). */
  async recent(db: AiChatDb, userId: string, limit: number) {
    const rows = await db.conversation.findMany({ where: { userId }, orderBy: { id: 'desc' }, take: limit });
    return rows.reverse();
  },
};
