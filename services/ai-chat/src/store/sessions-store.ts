import type { AiChatDb } from './db';

/** Where a subscriber's chat stands (document 2 §4: IDLE by default). */
export type SessionState = 'IDLE' | 'AWAITING_PAYMENT';

/** Each subscriber's chat state and what it waits for; the only place that touches user_sessions. */
export const sessionsStore = {
  /** A purchase's invoice is out: the chat waits for its payment. */
  async awaitingPayment(db: AiChatDb, userId: string, context: { intentId: number; invoiceId: string }): Promise<void> {
    const data = { state: 'AWAITING_PAYMENT' satisfies SessionState, context };
    await db.userSession.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  },

  /** The awaited invoice was paid: back to IDLE (unless the chat has moved on to another purchase since). */
  async paid(db: AiChatDb, userId: string, invoiceId: string): Promise<void> {
    await db.userSession.updateMany({ where: { userId, state: 'AWAITING_PAYMENT', context: { path: ['invoiceId'], equals: invoiceId } }, data: { state: 'IDLE' satisfies SessionState, context: {} } });
  },
};
