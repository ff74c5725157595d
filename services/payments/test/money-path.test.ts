import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { startTestSystem, type TestSystem } from '@bo/platform/testing/services';
import notifications, { SIMULATOR_MANYCHAT_TOKEN } from '@bo/notifications/service';
import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { buildQpaySimulator } from '@bo/sim-qpay';
import streamingKeys from '@bo/streaming-keys/service';
import payments, { qpaySimulatorSettings } from '../src/service';
import type { PaymentsService } from './system';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The money path end to end, in one test process: payments, streaming-keys and notifications on
// PostgreSQL, Redis and RabbitMQ, against the QPay and ManyChat simulators. A streaming order is
// made by an admin, paid in the bank app, and the buyer gets exactly one key in the chat.
describe('money path: order, payment, key, chat message', () => {
  let system: TestSystem;
  const qpay = buildQpaySimulator({ seed: false });
  const manychat = buildManyChatSimulator();
  let paymentsService: PaymentsService;

  const call = (service: 'payments' | 'streaming-keys', method: string, path: string, body?: unknown) => system.call(service, method, path, body);

  const order = async (subscriberId: string, service = 'NFX') => {
    const made = await call('streaming-keys', 'POST', '/api/streaming-invoices', { email: `buyer${subscriberId}@example.mn`, service, duration: 1, amount: 35_000, customerName: 'Бат-Эрдэнэ', subscriberId });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const invoice = await paymentsService.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: made.body.data.invoiceId } });
    return { streamingInvoiceId: made.body.data.id as number, invoiceId: invoice.invoiceId, qpayInvoiceId: invoice.qpayInvoiceId!, callbackToken: invoice.callbackToken };
  };
  let qpayUrl = '';
  /** The payer pays in the bank app; `callback: 'none'` loses QPay's callback. */
  const payAtQpay = async (qpayInvoiceId: string, plan: Record<string, unknown> = { callback: 'none' }) => {
    const response = await fetch(`${qpayUrl}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wait: true, ...plan }) });
    if (!response.ok) throw new Error(`pay: ${response.status} ${await response.text()}`);
  };
  const streamingInvoice = async (id: number) => (await call('streaming-keys', 'GET', '/api/streaming-invoices')).body.data.find((invoice: { id: number }) => invoice.id === id);
  const keyMessages = (subscriberId: string, key: string) => manychat.state.messages.filter((message) => message.subscriberId === subscriberId && JSON.stringify(message.content).includes(key));

  beforeAll(async () => {
    await qpay.ready;
    qpayUrl = await listen(qpay.app);
    const manychatUrl = await listen(manychat.app);
    // pricing has an address (payments needs one) but never runs here: no chat order is made.
    system = await startTestSystem('money_path_inproc', { services: ['payments', 'streaming-keys', 'notifications', 'pricing'] });
    paymentsService = await system.start(payments as never, {
      ...qpaySimulatorSettings(qpayUrl),
      PUBLIC_URL: system.url('payments'),
    });
    await system.start(streamingKeys as never, { PUBLIC_URL: system.url('payments') });
    await system.start(notifications as never, { MANYCHAT_API_URL: manychatUrl, MANYCHAT_API_TOKEN: SIMULATOR_MANYCHAT_TOKEN, EXPIRY_CHECK_CRON: '0 0 1 1 *' });
    const now = new Date().toISOString();
    await fetch(`${manychatUrl}/__sim/subscribers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(['5550001', '5550002', '5550003', '5550004'].map((id) => ({ id, first_name: 'Buyer', last_interaction: now, last_seen: now }))) });
    await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.pool@example.mn', months: 1, profiles: 2, password: 'Pool-Pass-1' });
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
    await qpay.app.close();
    await manychat.app.close();
  });

  it('turns 100 concurrent and 100 sequential duplicate callbacks of one payment into one key and one delivery message', { timeout: 60_000 }, async () => {
    const made = await order('5550001');
    await payAtQpay(made.qpayInvoiceId);
    const callbackUrl = `${system.url('payments')}/api/qpay/callback/${made.invoiceId}?token=${made.callbackToken}&qpay_payment_id=1`;
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => fetch(callbackUrl).then((response) => response.status)));
    const sequential: number[] = [];
    for (let i = 0; i < 100; i++) sequential.push((await fetch(callbackUrl)).status);
    expect([...concurrent, ...sequential].every((status) => status === 200)).toBe(true);

    const paid = await eventually(async () => {
      const invoice = await streamingInvoice(made.streamingInvoiceId);
      return invoice?.status === 'PAID' && invoice.key ? invoice : null;
    }, 15_000, 'the key assigned');
    await eventually(() => keyMessages('5550001', paid.key).length > 0, 15_000, 'the key delivered');
    await sleep(1500); // a second delivery would land meanwhile
    expect(keyMessages('5550001', paid.key)).toHaveLength(1);
    const keys = (await call('streaming-keys', 'GET', '/api/streaming-keys')).body.data.filter((key: { customerId: string | null }) => key.customerId === '5550001');
    expect(keys).toHaveLength(1);
  });

  it('keeps a paid order without a free key visible as needing attention, and assigns it once later', { timeout: 60_000 }, async () => {
    const second = await order('5550002');
    const third = await order('5550003');
    await payAtQpay(second.qpayInvoiceId, { callback: 'get' });
    await payAtQpay(third.qpayInvoiceId, { callback: 'get' });
    // One key was left in the pool of two: one order gets it, the other waits for an admin.
    const waiting = await eventually(async () => {
      const all = [await streamingInvoice(second.streamingInvoiceId), await streamingInvoice(third.streamingInvoiceId)];
      return all.every((invoice) => invoice?.status === 'PAID' || invoice?.status === 'NEEDS_ATTENTION') ? all.find((invoice) => invoice.status === 'NEEDS_ATTENTION') : null;
    }, 15_000, 'one order needing attention');
    expect(waiting.attentionReason).toMatch(/Netflix/);
    expect((await call('streaming-keys', 'POST', `/api/streaming-invoices/${waiting.id}/assign-key`)).status).toBe(409);

    await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.pool2@example.mn', months: 1, profiles: 1 });
    const presses = await Promise.all(Array.from({ length: 5 }, () => call('streaming-keys', 'POST', `/api/streaming-invoices/${waiting.id}/assign-key`)));
    expect(presses.filter((press) => press.status === 200)).toHaveLength(1);
    const done = await streamingInvoice(waiting.id);
    expect(done).toMatchObject({ status: 'PAID', keyGenerated: true });
    await eventually(() => keyMessages(done.subscriberId, done.key).length === 1, 15_000, 'the late key delivered');
  });

  it("moves an admin's approval through the same transition: a key and a message, once", { timeout: 60_000 }, async () => {
    await call('streaming-keys', 'POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.pool3@example.mn', months: 1, profiles: 1 });
    const made = await order('5550004');
    const approvals = await Promise.all(Array.from({ length: 3 }, () => call('payments', 'POST', `/api/admin/invoices/${made.invoiceId}/approve`)));
    expect(approvals.filter((approval) => approval.status === 200)).toHaveLength(1);
    const paid = await eventually(async () => {
      const invoice = await streamingInvoice(made.streamingInvoiceId);
      return invoice?.status === 'PAID' && invoice.key ? invoice : null;
    }, 15_000, 'the approved order keyed');
    await eventually(() => keyMessages('5550004', paid.key).length === 1, 15_000, 'the key delivered');
  });
});
