import type { ServiceContext, ServiceParts } from '@bo/platform/service';
import { AiProviders } from './clients/ai-providers';
import type { AiChatConfig } from './config';
import { aiChatConfigItems } from './config-status';
import type { PrismaClient } from './generated/prisma/client';
import { EmailParser } from './operations/email-parser';
import { registerParserRoutes } from './routes/parser';
import { registerPromptRoutes } from './routes/prompts';
import { registerProviderRoutes } from './routes/providers';

export interface AiChatExposed {
  ai: AiProviders;
  parser: EmailParser;
}

/**
 * The ai-chat service's parts of issue 10: the AI providers (fallback in priority order), the
 * system prompts, and the e-mail parser behind the admin's test and the customers' code fetch.
 */
export async function buildAiChatApp({ config, logger, prisma, outside }: ServiceContext<AiChatConfig, PrismaClient>): Promise<ServiceParts<AiChatExposed>> {
  const ai = new AiProviders({
    baseUrls: { openai: config.OPENAI_BASE_URL, gemini: config.GEMINI_BASE_URL, claude: config.CLAUDE_BASE_URL },
    apiKeys: config.AI_API_KEYS,
    timeoutMs: config.AI_TIMEOUT_MS,
    logger,
    outside,
  });
  const parser = new EmailParser({ prisma, ai });
  const deps = { prisma, ai, parser };
  return {
    routes(app) {
      registerPromptRoutes(app, deps);
      registerProviderRoutes(app, deps);
      registerParserRoutes(app, deps);
    },
    configItems: () => aiChatConfigItems(config, prisma, ai),
    exposed: { ai, parser },
  };
}
