import { schemaOf } from '@bo/proto';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** The service's database client or one of its transactions. */
export type AiChatDb = PrismaClient | Prisma.TransactionClient;

/** Prisma's unique-constraint failure. */
export const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/** Raw SQL is not schema-qualified by Prisma (see platform's prisma-client): the tables it names. */
const schema = `"${schemaOf('ai-chat')}"`;
export const TABLES = {
  conversations: `${schema}.conversations`,
  subscribers: `${schema}.user_chat_history`,
  pauses: `${schema}.automation_pauses`,
  purchaseIntents: `${schema}.purchase_intents`,
  knowledge: `${schema}.knowledge_base`,
};
