import type { RunningService } from '@bo/platform/service';
import { startTestSystem, TEST_QPAY_WEBHOOK_SECRET, type TestReply, type TestSystem } from '@bo/platform/testing/services';
import { startTcpProxy, type TcpProxy } from '@bo/platform/testing/tcp-proxy';
import pricing from '@bo/pricing/service';
import { buildGoogleSheetsSimulator, defaultPriceList } from '@bo/sim-google-sheets';
import { listen } from '@bo/sim-kit';
import { buildQpaySimulator, type QpaySimulatorOptions } from '@bo/sim-qpay';
import streamingKeys from '@bo/streaming-keys/service';
import type { PaymentsExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import payments, { qpaySimulatorSettings } from '../src/service';

export type PaymentsService = RunningService<PrismaClient, PaymentsExposed>;

/** The header the chat flow sends, with the secret payments starts with in a test system. */
export const chatHeaders = (address: string, secret = TEST_QPAY_WEBHOOK_SECRET) => ({ 'x-webhook-secret': secret, 'x-forwarded-for': address });

export interface PaymentsSystem {
  system: TestSystem;
  payments: PaymentsService;
  qpay: ReturnType<typeof buildQpaySimulator>;
  qpayUrl: string;
  /** The Sheets simulator behind pricing, when the price lists run (`prices: true`). */
  sheets: ReturnType<typeof buildGoogleSheetsSimulator> | null;
  /** payments' connections to streaming-keys and to pricing, which a test can cut (`prices: true`). */
  priceLinks: TcpProxy[];
  /** A request to payments as the gateway forwards it: as an admin unless `headers` say otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** Pays the QPay invoice behind our invoice in the simulator (`callback: 'none'` loses the callback). */
  pay(invoiceId: string, plan?: { amount?: number; callback?: 'get' | 'post' | 'none'; duplicates?: number; type?: 'P2P' | 'CARD' }): Promise<unknown>;
  /** payments.invoice.paid rows in payments' outbox. */
  paidEvents(invoiceId?: string): Promise<number>;
  /** QPay API requests the simulator received (not its /__sim/ controls), e.g. `POST /sandbox/v2/invoice`. */
  qpayCalls(method: string, pathEnd: string): number;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * payments as it runs in production (its PostgreSQL schema, Redis, RabbitMQ) against the QPay
 * simulator, both environments pointed at it, the simulator's merchant in the settings. With
 * `prices`, the two price lists the chat webhook charges from run beside it: streaming-keys, and
 * pricing on the Sheets simulator's price list. Without, their addresses answer nothing.
 */
export async function startPaymentsSystem(name: string, options: { env?: Record<string, string>; qpay?: QpaySimulatorOptions; prices?: boolean } = {}): Promise<PaymentsSystem> {
  const qpay = buildQpaySimulator({ seed: false, ...options.qpay });
  await qpay.ready;
  const qpayUrl = await listen(qpay.app);
  const system = await startTestSystem(name, { services: ['payments', 'streaming-keys', 'pricing'] });
  let sheets: PaymentsSystem['sheets'] = null;
  const priceLinks: TcpProxy[] = [];
  const linkTo = async (service: 'streaming-keys' | 'pricing') => {
    const link = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(system.url(service)).port) });
    priceLinks.push(link);
    return `http://127.0.0.1:${link.port}`;
  };
  if (options.prices) {
    sheets = buildGoogleSheetsSimulator({ spreadsheets: [defaultPriceList()] });
    const sheetsUrl = await listen(sheets.simulator.app);
    await system.start(pricing as never, pricing.simulatorEnv({ sheets: sheetsUrl } as never));
    await system.start(streamingKeys as never, { PUBLIC_URL: system.url('payments') });
  }
  const env = {
    ...qpaySimulatorSettings(qpayUrl),
    QPAY_TIMEOUT_MS: '2000',
    // Callbacks come straight to payments in these tests (no gateway in between).
    PUBLIC_URL: system.url('payments'),
    ...(options.prices ? { STREAMING_KEYS_URL: await linkTo('streaming-keys'), PRICING_URL: await linkTo('pricing') } : {}),
    ...options.env,
  };
  const handle: PaymentsSystem = {
    system,
    payments: await system.start<PaymentsService>(payments as never, env),
    qpay,
    qpayUrl,
    sheets,
    priceLinks,
    call: (method, path, body, headers) => system.call('payments', method, path, body, headers),
    async pay(invoiceId, plan = {}) {
      const invoice = await handle.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
      const response = await fetch(`${qpayUrl}/__sim/invoices/${invoice.qpayInvoiceId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wait: true, ...plan }) });
      if (!response.ok) throw new Error(`the simulator refused to pay: ${response.status} ${await response.text()}`);
      return response.json();
    },
    async paidEvents(invoiceId) {
      const rows = await handle.payments.prisma.$queryRawUnsafe<{ count: bigint }[]>(
        `SELECT count(*) AS count FROM payments.outbox_events WHERE name = 'payments.invoice.paid' ${invoiceId ? `AND payload->>'invoiceId' = $1` : ''}`,
        ...(invoiceId ? [invoiceId] : []),
      );
      return Number(rows[0].count);
    },
    qpayCalls: (method, pathEnd) => qpay.journal.list().filter((entry) => entry.method === method && entry.url.split('?')[0].endsWith(pathEnd)).length,
    async restart() {
      handle.payments = await system.restart<PaymentsService>('payments');
    },
    async stop() {
      await system.stop();
      await qpay.app.close();
      await sheets?.simulator.app.close();
      for (const link of priceLinks) await link.close();
    },
  };
  return handle;
}

/** An invoice for a custom product, made as an admin. */
export async function newInvoice(handle: PaymentsSystem, amount = 35_000, extra: Record<string, unknown> = {}): Promise<string> {
  const made = await handle.call('POST', '/api/qpay/create-invoice', { customer_name: 'Бат-Эрдэнэ', product_name: 'Netflix Premium 1 сар', amount, subscriber_id: '1234567', ...extra });
  if (made.status !== 200) throw new Error(`create-invoice: ${made.status} ${JSON.stringify(made.body)}`);
  return made.body.invoiceId as string;
}
