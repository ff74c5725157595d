import type { AiProviders } from '../clients/ai-providers';
import type { ChatSecret } from '../clients/chat-secret';
import type { PrismaClient } from '../generated/prisma/client';
import type { AutomationPauses } from '../operations/automation-pauses';
import type { ChatFrontDoor } from '../operations/chat-front-door';
import type { ChatPurchases } from '../operations/chat-purchases';
import type { EmailParser } from '../operations/email-parser';

/** What the ai-chat routes are built on. */
export interface AiChatRouteDeps {
  prisma: PrismaClient;
  ai: AiProviders;
  parser: EmailParser;
  frontDoor: ChatFrontDoor;
  chatSecret: ChatSecret;
  purchases: ChatPurchases;
  pauses: AutomationPauses;
}
