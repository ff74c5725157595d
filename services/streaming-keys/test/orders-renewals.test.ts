import { asService } from '@bo/platform/testing/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, asNotifications, startKeysSystem, type KeysSystem } from './system';

const DAY = 86_400_000;

/** Orders and renewals through payments and the QPay simulator: the whole money path of a key. */
describe('streaming-keys with payments: orders, payment, renewal links', () => {
  let it_: KeysSystem;
  let soldKey: { id: number; expiresAt: Date };

  const payAtQpay = async (invoiceId: string) => {
    const invoice = [...it_.qpay!.state.invoices.values()].find((candidate) => candidate.senderInvoiceNo === invoiceId);
    if (!invoice) throw new Error(`QPay has no invoice ${invoiceId}`);
    const response = await fetch(`${it_.qpayUrl}/__sim/invoices/${invoice.invoiceId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wait: true }) });
    expect(response.ok).toBe(true);
  };
  const paymentsInvoice = (invoiceId: string) => it_.payments!.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_orders');
    await it_.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 });
    await it_.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 3, price: 99_000 });
    await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.sales@example.mn', months: 1, profiles: 2, password: 'Shared-Pass-2026' });
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('checks the invoice form with the texts of document 3 §5', async () => {
    const base = { email: 'bat@example.mn', service: 'NFX', duration: 1 };
    const detail = async (body: unknown) => (await it_.call('POST', '/api/streaming-invoices', body)).body.details;
    expect(await detail({ ...base, email: 'nope' })).toContainEqual({ field: 'email', message: 'Invalid email address' });
    expect(await detail({ ...base, service: undefined })).toContainEqual({ field: 'service', message: 'Service is required' });
    expect(await detail({ ...base, duration: 0 })).toContainEqual({ field: 'duration', message: 'Duration must be at least 1 day' });
    expect(await detail({ ...base, amount: -1 })).toContainEqual({ field: 'amount', message: 'Amount must be at least 0' });
    const noPrice = await it_.call('POST', '/api/streaming-invoices', { ...base, service: 'MAX' });
    expect(noPrice).toMatchObject({ status: 400, body: { error: 'No price for HBO Max 1 month(s): add it on the Pricing tab or enter an amount' } });
    expect(await it_.keys.prisma.streamingInvoice.count()).toBe(0);
  });

  it('makes the order, its QPay invoice through payments at the listed price, and delivers a key once it is paid', async () => {
    const made = await it_.call('POST', '/api/streaming-invoices', { email: 'Bat@Example.mn', service: 'NFX', duration: 1, customerName: 'Бат-Эрдэнэ', phoneNumber: '99112233', subscriberId: '1234567' });
    expect(made.status).toBe(200);
    const order = made.body.data;
    expect(order).toMatchObject({ status: 'PENDING', email: 'bat@example.mn', serviceCode: 'NFX', serviceName: 'Netflix', duration: 1, amount: 35_000, platform: 'admin', keyId: null });
    expect(order.invoiceId).toMatch(/^INV-[A-Z0-9]{10}$/);
    expect(order.paymentUrl).toBe(`${it_.system.url('payments')}/payment/${order.invoiceId}`);
    const atPayments = await paymentsInvoice(order.invoiceId);
    expect(atPayments).toMatchObject({ reference: `streaming-invoice:${order.id}`, amount: 35_000, userId: '1234567', metadata: { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'bat@example.mn', streamingInvoiceId: order.id } });

    await payAtQpay(order.invoiceId);
    const paid = await eventually(async () => {
      const found = (await it_.call('GET', '/api/streaming-invoices?status=PAID')).body.data;
      return found.find((invoice: any) => invoice.id === order.id);
    });
    expect(paid).toMatchObject({ keyGenerated: true, invoiceId: order.invoiceId, paidAt: expect.any(String), key: expect.stringMatching(/-NFX$/) });
    const key = await it_.keys.prisma.streamingKey.findUniqueOrThrow({ where: { id: paid.keyId } });
    expect(key).toMatchObject({ customerId: '1234567', buyerEmail: 'bat@example.mn', streamingInvoiceId: order.id });
    soldKey = key;
  });

  it('marks the order FAILED and answers 502/503 when payments cannot make the invoice', async () => {
    // Busy for each of the client's three tries, and no more: a busy answer left over would meet the next test's invoice.
    await fetch(`${it_.qpayUrl}/__sim/faults/preset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'system_busy', route: '/invoice', method: 'POST', times: 3 }) });
    const refused = await it_.call('POST', '/api/streaming-invoices', { email: 'late@example.mn', service: 'NFX', duration: 3 });
    expect([502, 503]).toContain(refused.status);
    expect(refused.body.error).toMatch(/^Payments could not make the invoice: /);
    expect(JSON.stringify(refused.body)).not.toMatch(/at .*\.ts:\d+/);
    const failed = (await it_.call('GET', '/api/streaming-invoices?status=FAILED')).body.data;
    expect(failed).toEqual([expect.objectContaining({ email: 'late@example.mn', amount: 99_000, invoiceId: null, attentionReason: refused.body.error })]);
  });

  it('renews through the reminder link: one renewal invoice however often it is opened, the key extended once when paid', async () => {
    // A fixed expiry, far ahead (the later of it and now on any day): 30 November 10:00 in Ulaanbaatar.
    soldKey = await it_.keys.prisma.streamingKey.update({ where: { id: soldKey.id }, data: { expiresAt: new Date('2090-11-30T02:00:00.000Z') } });
    const session = (await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKey.id, months: 3 }, asNotifications)).body;
    expect(session.amount).toBe(99_000);
    const opens = await Promise.all(Array.from({ length: 5 }, () => it_.call('GET', session.path, undefined, {})));
    const locations = new Set(opens.map((open) => `${open.status} ${open.headers.get('location')}`));
    expect(locations.size).toBe(1);
    const [location] = [...locations];
    expect(location).toMatch(/^302 \/payment\/INV-[A-Z0-9]{10}$/);
    const invoiceId = location.split('/').pop()!;
    expect(await paymentsInvoice(invoiceId)).toMatchObject({ reference: `renewal:${session.sessionId}`, amount: 99_000, userId: '1234567', metadata: { kind: 'renewal', keyId: soldKey.id, months: 3, renewalSessionId: session.sessionId } });
    expect(it_.qpay!.state.invoices.size).toBe(2);

    await payAtQpay(invoiceId);
    const renewed = await eventually(async () => {
      const key = await it_.keys.prisma.streamingKey.findUniqueOrThrow({ where: { id: soldKey.id } });
      return key.expiresAt.getTime() !== soldKey.expiresAt.getTime() && key;
    });
    // Three calendar months from the old expiry (still ahead), not from today: 28 February 10:00 in Ulaanbaatar, the 30th being past February's end.
    expect(renewed.expiresAt.toISOString()).toBe('2091-02-28T02:00:00.000Z');
    expect(await it_.keys.prisma.renewalSession.findUniqueOrThrow({ where: { id: session.sessionId } })).toMatchObject({ status: 'paid', invoiceId });
    const extended = await it_.keys.prisma.$queryRawUnsafe<{ payload: any }[]>(`SELECT payload FROM streaming_keys.outbox_events WHERE name = 'streaming.key.extended'`);
    expect(extended.map((row) => row.payload)).toEqual([expect.objectContaining({ keyId: soldKey.id, invoiceId, months: 3, amount: 99_000, previousExpiresAt: soldKey.expiresAt.toISOString(), expiresAt: renewed.expiresAt.toISOString() })]);

    // The paid link still leads to its (paid) invoice; nothing more is made or extended.
    expect((await it_.call('GET', session.path, undefined, {})).headers.get('location')).toBe(`/payment/${invoiceId}`);
    expect(it_.qpay!.state.invoices.size).toBe(2);
  });

  it('tells the config-status page that payments answers', async () => {
    const status = await it_.call('GET', '/internal/streaming-keys/config-status', undefined, asService('gateway'));
    expect(status.body.items).toContainEqual({ name: 'Payments service (streaming invoices and renewal links)', category: 'Streaming keys', configured: true, simulated: false });
  });

  it('leads a renewal link whose invoice was cancelled (expired unpaid) to a new invoice, one however often it is opened', async () => {
    const session = (await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKey.id, months: 1 }, asNotifications)).body;
    const first = (await it_.call('GET', session.path, undefined, {})).headers.get('location')!.split('/').pop()!;
    expect((await it_.call('GET', session.path, undefined, {})).headers.get('location')).toBe(`/payment/${first}`);
    // payments cancels an invoice left unpaid past its expiry (here: an admin deletes it, the same state).
    await it_.payments!.prisma.qpayInvoice.update({ where: { invoiceId: first }, data: { status: 'cancelled', cancelledAt: new Date() } });
    const opens = await Promise.all(Array.from({ length: 5 }, () => it_.call('GET', session.path, undefined, {})));
    const locations = new Set(opens.map((open) => open.headers.get('location')));
    expect(locations.size).toBe(1);
    const second = [...locations][0]!.split('/').pop()!;
    expect(second).not.toBe(first);
    expect(await paymentsInvoice(second)).toMatchObject({ status: 'pending', reference: `renewal:${session.sessionId}:after:${first}`, metadata: { kind: 'renewal', renewalSessionId: session.sessionId } });
    expect(await it_.keys.prisma.renewalSession.findUniqueOrThrow({ where: { id: session.sessionId } })).toMatchObject({ invoiceId: second });
  });

  it('answers 404 JSON for an unknown or expired renewal link', async () => {
    const unknown = await it_.call('GET', '/api/streaming/renew/rs_00000000000000000000000000000000', undefined, {});
    expect(unknown).toMatchObject({ status: 404, body: { error: 'This renewal link is unknown or has expired' } });
    const session = (await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKey.id, months: 1 }, asNotifications)).body;
    await it_.keys.prisma.renewalSession.update({ where: { id: session.sessionId }, data: { expiresAt: new Date(Date.now() - DAY) } });
    expect((await it_.call('GET', session.path, undefined, {})).status).toBe(404);
  });
});
