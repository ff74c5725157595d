import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** The service's database client or one of its transactions. */
export type AiChatDb = PrismaClient | Prisma.TransactionClient;

/** Prisma's unique-constraint failure. */
export const isUniqueViolation = (error: unknown) => error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
