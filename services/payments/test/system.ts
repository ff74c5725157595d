import type { RunningService } from '@bo/platform/service';
import { startTestSystem, type TestReply, type TestSystem } from '@bo/platform/testing/services';
import { listen } from '@bo/sim-kit';
import { buildQpaySimulator, type QpaySimulatorOptions } from '@bo/sim-qpay';
import type { PaymentsExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import payments, { qpaySimulatorSettings } from '../src/service';

export type PaymentsService = RunningService<PrismaClient, PaymentsExposed>;

export interface PaymentsSystem {
  system: TestSystem;
  payments: PaymentsService;
  qpay: ReturnType<typeof buildQpaySimulator>;
  qpayUrl: string;
  /** A request to payments as the gateway forwards it: as an admin unless `headers` say otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** Pays the QPay invoice behind our invoice in the simulator (`callback: 'none'` loses the callback). */
  pay(invoiceId: string, plan?: { amount?: number; callback?: 'get' | 'post' | 'none'; duplicates?: number }): Promise<unknown>;
  /** payments.invoice.paid rows in payments' outbox. */
  paidEvents(invoiceId?: string): Promise<number>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * payments as it runs in production (its PostgreSQL schema, Redis, RabbitMQ) against the QPay
 * simulator, both environments pointed at it, the simulator's merchant in the settings.
 */
export async function startPaymentsSystem(name: string, options: { env?: Record<string, string>; qpay?: QpaySimulatorOptions } = {}): Promise<PaymentsSystem> {
  const qpay = buildQpaySimulator({ seed: false, ...options.qpay });
  await qpay.ready;
  const qpayUrl = await listen(qpay.app);
  const system = await startTestSystem(name, { services: ['payments'] });
  const env = {
    ...qpaySimulatorSettings(qpayUrl),
    QPAY_TIMEOUT_MS: '2000',
    // Callbacks come straight to payments in these tests (no gateway in between).
    PUBLIC_URL: system.url('payments'),
    ...options.env,
  };
  const handle: PaymentsSystem = {
    system,
    payments: await system.start<PaymentsService>(payments as never, env),
    qpay,
    qpayUrl,
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
    async restart() {
      handle.payments = await system.restart<PaymentsService>('payments');
    },
    async stop() {
      await system.stop();
      await qpay.app.close();
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
