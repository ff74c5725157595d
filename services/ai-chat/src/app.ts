import { attemptCounterFor } from '@bo/platform/cache';
import { schedule } from '@bo/platform/runs';
import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { CONVERSATION_CLEANUP_CRON } from '@bo/proto';
import { AiProviders } from './clients/ai-providers';
import { ChatSecret } from './clients/chat-secret';
import { PriceList } from './clients/price-list';
import type { AiChatConfig } from './config';
import { aiChatConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { AutomationPauses } from './operations/automation-pauses';
import { chatCleanupKind } from './operations/chat-cleanup';
import { ChatFrontDoor } from './operations/chat-front-door';
import { ChatPurchases } from './operations/chat-purchases';
import { EmailParser } from './operations/email-parser';
import { KnowledgeBase } from './operations/knowledge-base';
import { purchasesConsumers } from './operations/purchase-events';
import { registerChatWebhookRoutes } from './routes/chat-webhook';
import { registerConversationRoutes } from './routes/conversations';
import { registerFlowRoutes } from './routes/flows';
import { registerKnowledgeRoutes } from './routes/knowledge';
import { registerParserRoutes } from './routes/parser';
import { registerPromptRoutes } from './routes/prompts';
import { registerProviderRoutes } from './routes/providers';

export interface AiChatExposed {
  ai: AiProviders;
  parser: EmailParser;
  knowledge: KnowledgeBase;
}

/**
 * The ai-chat service: the AI providers (fallback in priority order), the system prompts, the
 * e-mail parser behind the admin's test and the customers' code fetch (issue 10), and the chat's
 * front door, ManyChat's webhook (issue 21).
 */
export async function buildAiChatApp({ config, logger, prisma, outside, signer, outbox, runs, infrastructure }: ServiceContext<AiChatConfig, PrismaClient>): Promise<ServiceParts<AiChatExposed>> {
  const ai = new AiProviders({
    baseUrls: { openai: config.OPENAI_BASE_URL, gemini: config.GEMINI_BASE_URL, claude: config.CLAUDE_BASE_URL },
    apiKeys: config.AI_API_KEYS,
    timeoutMs: config.AI_TIMEOUT_MS,
    requestsPerMinute: config.AI_REQUESTS_PER_MINUTE,
    logger,
    outside,
  });
  const parser = new EmailParser({ prisma, ai });
  const prices = new PriceList({ pricingUrl: config.PRICING_URL, signer, logger });
  prices.warm();
  const purchases = new ChatPurchases({ prisma, paymentsUrl: config.PAYMENTS_URL, publicUrl: config.PUBLIC_URL, signer });
  const knowledge = new KnowledgeBase({ prisma, ai, runs, logger });
  knowledge.warm();
  const frontDoor = new ChatFrontDoor({ prisma, sql: infrastructure.database.pool, outbox, runs, ai, prices, purchases, knowledge, logger, replyDeadlineMs: config.CHAT_REPLY_DEADLINE_MS, burstMs: config.CHAT_BURST_MS });
  const chatSecret = new ChatSecret({ paymentsUrl: config.PAYMENTS_URL, signer, guesses: attemptCounterFor(infrastructure.cache, 'chat:'), logger });
  const deps = { prisma, ai, parser, frontDoor, chatSecret, purchases, pauses: new AutomationPauses({ outbox }) };
  const chatCleanup = chatCleanupKind(prisma);
  return {
    routes(app) {
      registerPromptRoutes(app, deps);
      registerProviderRoutes(app, deps);
      registerParserRoutes(app, deps);
      registerChatWebhookRoutes(app, deps);
      registerConversationRoutes(app, deps);
      registerFlowRoutes(app, deps);
      registerKnowledgeRoutes(app, knowledge);
    },
    consumers: purchasesConsumers(),
    schedules: [schedule('chat-cleanup', CONVERSATION_CLEANUP_CRON, chatCleanup)],
    runs: [chatCleanup, frontDoor.lateAnswer, knowledge.embedRun],
    configItems: () => aiChatConfigItems(config, prisma, ai),
    exposed: { ai, parser, knowledge },
    stop: async () => prices.stop(),
  };
}
