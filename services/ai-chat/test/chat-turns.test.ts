import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@bo/platform/db';
import { chatTurnsStore } from '../src/store/chat-turns-store';
import { purchaseIntentsStore } from '../src/store/purchase-intents-store';
import { ANNOUNCE_EVERY_MS, subscribersStore } from '../src/store/subscribers-store';
import { startAiChatSystem, type AiChatSystem } from './system';

/**
 * The chat webhook's one-statement write (chatTurnsStore.take), on ai-chat's real database: what they
 * count, announce and find paused when a subscriber's messages come at once.
 */
describe("the chat webhook's record of a message and its answer", () => {
  let s: AiChatSystem;
  // The service's database as the webhook reaches it: its pool (the statement is prepared on each connection).
  let database: Database;
  beforeAll(async () => {
    s = await startAiChatSystem('ai_chat_turns');
    database = await openDatabase({ kind: 'postgres', url: s.system.env.DATABASE_URL });
  });
  afterAll(async () => {
    await database?.close();
    await s?.stop();
  });

  const take = (userId: string, text: string, at = new Date()) => chatTurnsStore.take(database.pool, { userId, firstName: 'Болд', text, at });

  it('keeps every message of a burst, counts each once, and lets exactly one of them announce the subscriber', async () => {
    const at = new Date();
    const taken = await Promise.all(Array.from({ length: 12 }, (_, n) => take('9100001', `message ${n}`, at)));
    expect(taken.map((one) => one.messageCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, n) => n + 1));
    expect(new Set(taken.map((one) => one.questionId)).size).toBe(12);
    // Never announced yet: each message finds the subscriber due, and only one wins the announcement.
    expect(taken.every((one) => one.announceDue && !one.paused)).toBe(true);
    const announced = await Promise.all(taken.map(() => subscribersStore.announced(s.aiChat.prisma, '9100001', at)));
    expect(announced.filter(Boolean)).toHaveLength(1);

    const history = await s.aiChat.prisma.userChatHistory.findUniqueOrThrow({ where: { userId: '9100001' } });
    expect(history).toMatchObject({ firstName: 'Болд', messageCount: 12 });
    expect(await s.aiChat.prisma.conversation.count({ where: { userId: '9100001', role: 'user' } })).toBe(12);
  });

  it('announces again only once ANNOUNCE_EVERY_MS has passed, or at once after a hand-back', async () => {
    const first = new Date(Date.now() - ANNOUNCE_EVERY_MS - 60_000);
    expect((await take('9100002', 'hi', first)).announceDue).toBe(true);
    expect(await subscribersStore.announced(s.aiChat.prisma, '9100002', first)).toBe(true);
    expect((await take('9100002', 'still there?', new Date(first.getTime() + 60_000))).announceDue).toBe(false);
    const later = new Date();
    expect((await take('9100002', 'hello again', later)).announceDue).toBe(true);
    expect(await subscribersStore.announced(s.aiChat.prisma, '9100002', later)).toBe(true);
    expect((await take('9100002', 'and again')).announceDue).toBe(false);

    await subscribersStore.announceNext(s.aiChat.prisma, '9100002');
    expect((await take('9100002', 'after the hand-back')).announceDue).toBe(true);
  });

  it('finds the subscriber paused while a pause lasts, and not once it ended; a name left out or blank keeps the one known', async () => {
    await s.aiChat.prisma.automationPause.create({ data: { userId: '9100003', pausedBy: 'admin', pausedUntil: new Date(Date.now() + 3_600_000) } });
    expect((await take('9100003', 'anyone?')).paused).toBe(true);
    await s.aiChat.prisma.automationPause.update({ where: { userId: '9100003' }, data: { pausedUntil: new Date(Date.now() - 1_000) } });
    expect((await chatTurnsStore.take(database.pool, { userId: '9100003', firstName: null, text: 'hello?', at: new Date() })).paused).toBe(false);
    // ManyChat sends {{first_name}} blank when it has none: the known name stays.
    await chatTurnsStore.take(database.pool, { userId: '9100003', firstName: '', text: 'hello again', at: new Date() });
    expect(await s.aiChat.prisma.userChatHistory.findUniqueOrThrow({ where: { userId: '9100003' } })).toMatchObject({ firstName: 'Болд', messageCount: 3 });
  });

  it('stores a price answer with the message and the purchases its Buy buttons open, each found by its link, after the message; nothing of it while paused', async () => {
    const offers = purchaseIntentsStore.newOffers(['Netflix Premium - 1 сар', 'Spotify Premium - 1 сар']);
    const answer = { text: 'Netflix… Spotify…', source: 'price' as const, offers };
    const taken = await Promise.all(Array.from({ length: 5 }, (_, n) => chatTurnsStore.take(database.pool, { userId: '9100004', firstName: null, text: `price ${n}`, at: new Date() }, n === 0 ? answer : undefined)));
    expect(taken.every((one) => !one.paused)).toBe(true);
    for (const offer of offers) {
      expect(await purchaseIntentsStore.byToken(s.aiChat.prisma, offer.token)).toMatchObject({ userId: '9100004', product: offer.product, status: 'collecting_details', expiresAt: offer.expiresAt });
    }
    const rows = await s.aiChat.prisma.conversation.findMany({ where: { userId: '9100004' }, orderBy: { id: 'asc' } });
    expect(rows.map((row) => row.role).sort()).toEqual(['assistant', 'user', 'user', 'user', 'user', 'user']);
    const question = rows.find((row) => row.id === taken[0].questionId)!;
    const stored = rows.find((row) => row.role === 'assistant')!;
    expect(stored).toMatchObject({ content: 'Netflix… Spotify…', source: 'price' });
    expect(stored.id).toBeGreaterThan(question.id);

    await s.aiChat.prisma.automationPause.create({ data: { userId: '9100004', pausedBy: 'admin', pausedUntil: null } });
    const quiet = purchaseIntentsStore.newOffers(['Netflix Premium - 1 сар']);
    expect((await chatTurnsStore.take(database.pool, { userId: '9100004', firstName: null, text: 'price?', at: new Date() }, { ...answer, offers: quiet })).paused).toBe(true);
    expect(await purchaseIntentsStore.byToken(s.aiChat.prisma, quiet[0].token)).toBeNull();
    expect(await s.aiChat.prisma.conversation.count({ where: { userId: '9100004', role: 'assistant' } })).toBe(1);
  });
});
