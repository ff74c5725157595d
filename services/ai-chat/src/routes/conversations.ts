import type { FastifyInstance } from 'fastify';
import { adminNameOf, serveRoute } from '@bo/platform';
import { cleanupConversations, CONVERSATION_MESSAGES_SHOWN, deleteConversation, listConversations, pauseAutomation, resumeAutomation, testAiChat } from '@bo/proto';
import { cleanUpChat } from '../operations/chat-cleanup';
import { providersStore } from '../store/providers-store';
import { conversationsStore } from '../store/conversations-store';
import { pausesStore } from '../store/pauses-store';
import type { AiChatRouteDeps } from './deps';

/** The conversations view on /ai-admin: each subscriber's history, a person's takeover (pause, resume), the clean-up, and the AI's test. */
export function registerConversationRoutes(app: FastifyInstance, { prisma, frontDoor, pauses }: AiChatRouteDeps): void {
  serveRoute(app, listConversations, async ({ query }) => {
    const subscribers = await conversationsStore.latestSubscribers(prisma, query.limit);
    const userIds = subscribers.map((subscriber) => subscriber.userId);
    const [histories, pauses] = await Promise.all([
      Promise.all(userIds.map((userId) => conversationsStore.recent(prisma, userId, CONVERSATION_MESSAGES_SHOWN))),
      pausesStore.lasting(prisma, userIds),
    ]);
    return {
      success: true,
      data: subscribers.map(({ userId, lastActivity }, index) => {
        const pause = pauses.get(userId);
        return {
          id: userId,
          userId,
          lastActivity: lastActivity.toISOString(),
          messages: histories[index].map((row) => ({ role: row.role as 'user' | 'assistant', content: row.content, source: row.source, timestamp: row.timestamp.toISOString() })),
          pause: pause ? { until: pause.pausedUntil?.toISOString() ?? null, by: pause.pausedBy } : null,
        };
      }),
    };
  });

  serveRoute(app, deleteConversation, async ({ params }) => ({ success: true, deleted: await conversationsStore.deleteFor(prisma, params.userId) }));

  serveRoute(app, pauseAutomation, async ({ params, body, identity }) => {
    const paused = await pauses.pause(params.userId, { hours: body.hours, by: adminNameOf(identity), reason: body.reason ?? null });
    return { success: true, data: { until: paused.until?.toISOString() ?? null, by: paused.by } };
  });

  serveRoute(app, resumeAutomation, async ({ params }) => {
    await pauses.resume(params.userId);
    return { success: true };
  });

  serveRoute(app, cleanupConversations, async () => ({ success: true, deleted: (await cleanUpChat(prisma)).deleted }));

  serveRoute(app, testAiChat, async ({ body }) => {
    const answer = await frontDoor.testAnswer(body.message);
    const provider = answer.providerId === null ? null : (await providersStore.list(prisma)).find((row) => row.id === answer.providerId);
    return { success: true, data: { reply: answer.content, provider: provider?.provider ?? null, model: provider?.model ?? null, durationMs: answer.durationMs } };
  });
}
