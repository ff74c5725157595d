import type { SecretBox } from '@bo/platform';
import type { Lock } from '@bo/platform/cache';
import type { Outbox } from '@bo/platform/events';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import type { PaymentsClient } from '../clients/payments';
import type { CodeFetch } from '../operations/code-fetch';
import type { FetchLimits } from '../operations/fetch-limits';
import type { KeyPool } from '../operations/key-pool';
import type { Orders } from '../operations/orders';
import type { Renewals } from '../operations/renewals';

/** What the streaming-keys routes are built on. */
export interface StreamingKeysRouteDeps {
  prisma: PrismaClient;
  outbox: Outbox<Prisma.TransactionClient>;
  secrets: SecretBox;
  pool: KeyPool;
  orders: Orders;
  renewals: Renewals;
  codeFetch: CodeFetch;
  payments: PaymentsClient;
  lock: Lock;
  fetchLimits: FetchLimits;
}
