import type { AiProviders } from '../clients/ai-providers';
import type { PrismaClient } from '../generated/prisma/client';
import type { EmailParser } from '../operations/email-parser';

/** What the ai-chat routes are built on. */
export interface AiChatRouteDeps {
  prisma: PrismaClient;
  ai: AiProviders;
  parser: EmailParser;
}
