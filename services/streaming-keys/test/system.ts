import type { Logger } from '@bo/platform';
import { asService } from '@bo/platform/testing/identity';
import type { PrismaClient as PaymentsPrisma } from '@bo/payments/generated/prisma/client';
import payments, { qpaySimulatorSettings } from '@bo/payments/service';
import type { RunningService } from '@bo/platform/service';
import { startTestSystem, type TestReply, type TestSystem } from '@bo/platform/testing/services';
export { eventually } from '@bo/platform/testing/eventually';
import { createEnvelope, paymentsInvoicePaid, type InvoiceOrder, type Payer } from '@bo/proto';
import { listen } from '@bo/sim-kit';
import { buildQpaySimulator } from '@bo/sim-qpay';
import type { StreamingKeysExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import streamingKeys from '../src/service';

export type StreamingKeysService = RunningService<PrismaClient, StreamingKeysExposed>;

/** notifications' signed identity, as its ServiceClient sends it. */
export const asNotifications = asService('notifications');

export interface KeysSystem {
  system: TestSystem;
  keys: StreamingKeysService;
  /** ai-chat beside it (the code fetch's parser); absent unless asked for with `aiChat: true`. */
  aiChat: RunningService | null;
  /** payments against the QPay simulator; absent with `payments: false` (its URL then answers nothing). */
  payments: RunningService<PaymentsPrisma> | null;
  qpay: ReturnType<typeof buildQpaySimulator> | null;
  qpayUrl: string | null;
  /** A request to streaming-keys as the gateway forwards it: as an admin unless `headers` say otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const defaultPayer: Payer = { name: 'Бат-Эрдэнэ', email: 'bat@example.mn', phone: '99112233', subscriberId: '1234567' };

/** A paid event of payments for an order (not yet published). */
export function paidEnvelope(invoiceId: string, order: InvoiceOrder, extra: { amount?: number; payer?: Partial<Payer> } = {}) {
  return createEnvelope(paymentsInvoicePaid, {
    invoiceId, revision: 1, amount: extra.amount ?? 35_000, description: 'Netflix 1 сар', paidAt: new Date().toISOString(), paymentId: null, approvedBy: null,
    payer: { ...defaultPayer, ...extra.payer }, order,
  });
}

/**
 * Lists a price on the Pricing tab. A chat order's payment is held to it (issue 18 §1): a paid
 * event of a chat order with no listed price waits for an admin instead of taking a key.
 */
export async function listPrice(handle: { call: KeysSystem['call'] }, service: 'NFX' | 'DPS' | 'AMZ' | 'HLU' | 'MAX', months: number, price = 35_000): Promise<void> {
  const listed = await handle.call('POST', '/api/streaming/pricing', { service, serviceName: service, duration: months, price });
  if (listed.status !== 200) throw new Error(`listing a price: ${listed.status} ${JSON.stringify(listed.body)}`);
}

/** Inbox rows of the service (all, or one event's), read with SQL: the platform's tables have no Prisma models. */
export async function inboxCount(keys: StreamingKeysService, eventId?: string): Promise<number> {
  const [row] = await keys.prisma.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM streaming_keys.inbox_events ${eventId === undefined ? '' : 'WHERE event_id = $1::uuid'}`,
    ...(eventId === undefined ? [] : [eventId]),
  );
  return row.n;
}

export interface KeysSystemOptions {
  payments?: boolean;
  transport?: 'rabbitmq' | 'embedded';
  /** Start ai-chat too (customers' code fetch sends it the mails to parse). */
  aiChat?: boolean;
  /** Settings of streaming-keys over the test system's, e.g. MAILBOX_IMAP_URL. */
  keysEnv?: Record<string, string>;
  /** Where the services log (silent when absent). */
  logger?: Logger;
}

/**
 * streaming-keys as it runs in production (its PostgreSQL schema, Redis, RabbitMQ or the embedded
 * run's PostgreSQL bus), with payments beside it on the same database and bus, against the QPay
 * simulator, and ai-chat when asked for.
 */
export async function startKeysSystem(name: string, options: KeysSystemOptions = {}): Promise<KeysSystem> {
  const withPayments = options.payments !== false;
  // pricing has an address (payments needs one) but never runs here.
  const system = await startTestSystem(name, { services: ['payments', 'streaming-keys', 'pricing', ...(options.aiChat ? (['ai-chat'] as const) : [])], transport: options.transport, logger: options.logger });
  let qpay: ReturnType<typeof buildQpaySimulator> | null = null;
  let qpayUrl: string | null = null;
  let paymentsService: RunningService<PaymentsPrisma> | null = null;
  if (withPayments) {
    qpay = buildQpaySimulator({ seed: false });
    await qpay.ready;
    qpayUrl = await listen(qpay.app);
    paymentsService = await system.start<RunningService<PaymentsPrisma>>(payments as never, {
      ...qpaySimulatorSettings(qpayUrl),
      QPAY_TIMEOUT_MS: '2000',
      PUBLIC_URL: system.url('payments'),
    });
  }
  // Loaded only when asked for, so the suites without it do not depend on ai-chat.
  const aiChat = options.aiChat ? await system.start((await import('@bo/ai-chat/service')).default as never) : null;
  const handle: KeysSystem = {
    system,
    keys: await system.start<StreamingKeysService>(streamingKeys as never, options.keysEnv),
    aiChat,
    payments: paymentsService,
    qpay,
    qpayUrl,
    call: (method, path, body, headers) => system.call('streaming-keys', method, path, body, headers),
    async restart() {
      handle.keys = await system.restart<StreamingKeysService>('streaming-keys');
    },
    async stop() {
      await system.stop();
      await qpay?.app.close();
    },
  };
  return handle;
}
