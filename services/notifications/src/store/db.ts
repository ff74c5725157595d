import { schemaOf } from '@bo/proto';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

/** The service's database client or one of its transactions: store functions run in either, never opening their own. */
export type NotificationsDb = PrismaClient | Prisma.TransactionClient;

/** Raw SQL is not schema-qualified by Prisma (see platform's prisma-client). */
const schema = `"${schemaOf('notifications')}"`;
export const TABLES = {
  reminders: `${schema}.reminders`,
  counters: `${schema}.reminder_key_counters`,
  purchases: `${schema}.manychat_purchases`,
};
