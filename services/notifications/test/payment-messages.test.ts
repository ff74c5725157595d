import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEnvelope, paymentsInvoicePaid } from '@bo/proto';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
let invoices = 0;

/** A paid event of a new invoice (ten characters after INV-), paid by `subscriberId`. */
function paid(subscriberId: string | null, change: Partial<(typeof paymentsInvoicePaid.example)> = {}) {
  const invoiceId = `INV-PAY${String(++invoices).padStart(7, '0')}`;
  const example = paymentsInvoicePaid.example;
  return createEnvelope(paymentsInvoicePaid, { ...example, invoiceId, payer: { ...example.payer, subscriberId }, ...change });
}

describe('payment confirmations from payments.invoice.paid', () => {
  let n: NotificationsSystem;
  const delivery = (invoiceId: string) => n.notifications.prisma.delivery.findFirst({ where: { invoiceId, kind: 'payment_confirmation' } });
  const decided = (invoiceId: string) => eventually(async () => { const row = await delivery(invoiceId); return row && row.status !== 'pending' ? row : undefined; }, 15_000, `the delivery of ${invoiceId}`);

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_payments');
    n.manychat.state.upsertSubscriber({ id: '8200001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    n.manychat.state.upsertSubscriber({ id: '8200002', last_interaction: new Date(Date.now() - 72 * HOUR).toISOString() });
  });
  afterAll(() => n?.stop());
  beforeEach(() => n.manychat.faults.clear());

  it('sends one confirmation, records one purchase and one customer, when the same event arrives 50 times at once', async () => {
    const event = paid('8200001', { amount: 105000, description: 'Netflix 3 сар', paidAt: '2026-11-23T08:05:00.000Z' });
    await Promise.all(Array.from({ length: 50 }, () => n.system.publish(event)));
    const row = await decided(event.payload.invoiceId);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, templateName: null, subscriberId: '8200001', eventId: event.id });
    // Give the duplicates time to be consumed (and to do nothing).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const messages = n.messages('8200001');
    expect(messages).toHaveLength(1);
    expect(textOf(messages[0])).toBe('✅ Төлбөр амжилттай төлөгдлөө / Payment received\n\n💰 Дүн / Amount: 105,000₮\n📝 Netflix 3 сар\n🕒 Төлсөн / Paid: 2026-11-23 16:05');
    expect(row?.sentText).toBe(textOf(messages[0]));
    const { prisma } = n.notifications;
    expect(await prisma.delivery.count({ where: { invoiceId: event.payload.invoiceId } })).toBe(1);
    const purchase = await prisma.manychatPurchase.findUniqueOrThrow({ where: { invoiceId: event.payload.invoiceId }, include: { customer: true } });
    expect(purchase).toMatchObject({ service: 'NFX', duration: 1, amount: 105000, status: 'pending', keyId: null, customer: { facebookUserId: '8200001', email: 'bat@example.mn', name: 'Бат-Эрдэнэ', phone: '99112233' } });
    expect(await prisma.manychatCustomer.count({ where: { facebookUserId: '8200001' } })).toBe(1);
  });

  it('sends a confirmation inside the window as untagged text: our record of the subscriber says so, and the template is not used', async () => {
    await n.useTemplates({ payment_confirmation: 'payment_received' });
    await n.wrote('8200003', HOUR);
    n.manychat.state.upsertSubscriber({ id: '8200003', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    await eventually(() => n.notifications.prisma.chatSubscriber.findUnique({ where: { subscriberId: '8200003' } }), 10_000, 'the record of 8200003');
    const event = paid('8200003', { amount: 35000, description: 'Netflix 1 сар', paidAt: '2026-11-23T08:00:00.000Z' });
    const sends = () => n.manychat.journal.list().filter((entry) => entry.url.startsWith('/fb/sending/')).map((entry) => [entry.url, entry.status]);
    n.manychat.journal.clear();
    await n.system.publish(event);
    expect(await decided(event.payload.invoiceId)).toMatchObject({ status: 'sent', templateName: null });
    const [message] = n.messages('8200003');
    expect(message).toMatchObject({ source: 'sendContent', messageTag: null });
    expect(message.templateName).toBeUndefined();
    expect(textOf(message)).toContain('Payment received');
    expect(sends()).toEqual([['/fb/sending/sendContent', 200]]);
  });

  it('outside the window, for a payer the chat never told us about: the text first, then on ManyChat’s 3011 the payment-confirmation template with the payment’s data', async () => {
    await n.useTemplates({ payment_confirmation: 'payment_received' });
    const event = paid('8200002', { amount: 105000, description: '', paidAt: '2026-11-23T08:05:00.000Z' });
    await n.system.publish(event);
    const row = await decided(event.payload.invoiceId);
    expect(row).toMatchObject({ status: 'sent', templateName: 'payment_received', sentText: 'payment_received:\namount = 105,000₮\ndescription = —\npaid_at = 2026-11-23 16:05' });
    expect(n.messages('8200002')).toMatchObject([{ source: 'sendTemplate', templateName: 'payment_received', messageTag: null, content: { variables: { amount: '105,000₮', description: '—', paid_at: '2026-11-23 16:05' } } }]);
    const refused = n.manychat.journal.list().filter((entry) => entry.url.startsWith('/fb/sending/sendContent') && entry.status === 400);
    expect(refused.length).toBeGreaterThanOrEqual(1); // the 3011 that said the window was closed
  });

  it('sends again within one try what ManyChat did not take (429), and leaves a 5xx to the next try of the delivery', async () => {
    n.manychat.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 429, times: 2 });
    const limited = paid('8200001');
    await n.system.publish(limited);
    expect(await decided(limited.payload.invoiceId)).toMatchObject({ status: 'sent', attempts: 1 });

    // A server error may have reached the person: not repeated at once, but by the delivery's next try.
    n.manychat.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 500, times: 1 });
    const failed = paid('8200001');
    await n.system.publish(failed);
    expect(await decided(failed.payload.invoiceId)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(n.messages('8200001').filter((message) => textOf(message).includes('35,000₮'))).toHaveLength(2);
  });

  it('fails visibly, at once, when ManyChat refuses the token (401)', async () => {
    await n.manychat.app.inject({ method: 'POST', url: '/__sim/options', payload: { apiSecret: 'rotated-secret' } });
    try {
      const event = paid('8200001');
      const before = n.messages('8200001').length;
      await n.system.publish(event);
      const row = await decided(event.payload.invoiceId);
      expect(row).toMatchObject({ status: 'failed', attempts: 1, sentText: null });
      expect(row?.lastError).toBe('ManyChat refused the API token (401): Access denied: wrong or missing API token');
      expect(n.messages('8200001')).toHaveLength(before);
      const failed = (await n.call('GET', '/api/manychat/deliveries?status=failed&kind=payment_confirmation')).body.data;
      expect(failed[0]).toMatchObject({ invoiceId: event.payload.invoiceId, status: 'failed', lastError: row?.lastError });
    } finally {
      await n.manychat.app.inject({ method: 'POST', url: '/__sim/options', payload: { apiSecret: 'sim-manychat-secret' } });
    }
  });

  it('sends 40 different confirmations at once exactly once each, paced under ManyChat’s 25 sends a second', async () => {
    const subscribers = Array.from({ length: 40 }, (_, i) => `82100${String(i).padStart(2, '0')}`);
    for (const id of subscribers) n.manychat.state.upsertSubscriber({ id, last_interaction: new Date(Date.now() - HOUR).toISOString() });
    const events = subscribers.map((id) => paid(id));
    n.manychat.journal.clear();
    await Promise.all(events.map((event) => n.system.publish(event)));
    const rows = await Promise.all(events.map((event) => decided(event.payload.invoiceId)));
    expect(rows.every((row) => row?.status === 'sent')).toBe(true);
    for (const id of subscribers) expect(n.messages(id)).toHaveLength(1);
    // Paced: ManyChat (the simulator answers 429 past 25 sends a second) refused none of them, so
    // each was sent once. How long the 40 take is bench/notifications.ts's figure.
    const sends = n.manychat.journal.list().filter((entry) => entry.url.startsWith('/fb/sending/'));
    expect(sends.filter((entry) => entry.status === 429)).toEqual([]);
    expect(sends).toHaveLength(40);
  });

  it('keeps a message through a restart while ManyChat is down, and sends it once ManyChat is back', async () => {
    n.manychat.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 502 });
    const event = paid('8200001');
    const before = n.messages('8200001').length;
    await n.system.publish(event);
    await eventually(async () => ((await delivery(event.payload.invoiceId))?.attempts ?? 0) >= 1, 10_000, 'a first failed try');
    expect(await delivery(event.payload.invoiceId)).toMatchObject({ status: 'pending', lastError: expect.stringContaining('ManyChat answered 502') });
    await n.restart();
    n.manychat.faults.clear();
    expect(await decided(event.payload.invoiceId)).toMatchObject({ status: 'sent', lastError: null });
    expect(n.messages('8200001')).toHaveLength(before + 1);
  });

  it('records the purchase but sends nothing without a subscriber; a custom order is complete once paid', async () => {
    const anonymous = paid(null, { order: { kind: 'custom', productName: 'Steam Wallet $20' } });
    await n.system.publish(anonymous);
    const purchase = await eventually(() => n.notifications.prisma.manychatPurchase.findUnique({ where: { invoiceId: anonymous.payload.invoiceId } }));
    expect(purchase).toMatchObject({ customerId: null, service: null, duration: null, status: 'completed', completedAt: expect.any(Date) });
    expect(await delivery(anonymous.payload.invoiceId)).toBeNull();
  });
});
