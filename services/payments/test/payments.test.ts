import { asService } from '@bo/platform/testing/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOwnedBy } from '@bo/proto';
import { newInvoice, startPaymentsSystem, type PaymentsSystem } from './system';

/** streaming-keys' signed identity, as its ServiceClient sends it. */
const asStreamingKeys = asService('streaming-keys');

describe('payments: settings, invoices, approval, deletion', () => {
  let it_: PaymentsSystem;

  beforeAll(async () => {
    it_ = await startPaymentsSystem('payments_api');
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('serves every route its contracts declare', () => {
    for (const contract of routesOwnedBy('payments')) expect(it_.payments.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
  });

  it('keeps the client secret sealed and masked, keeps it when the form leaves it blank, and refuses an incomplete enable', async () => {
    const seeded = await it_.call('GET', '/api/qpay/settings');
    expect(seeded.body).toMatchObject({ qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '••••', qpayClientSecretSet: true, qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true, webhookPath: '/api/qpay/webhook', callbackPath: '/api/qpay/callback' });

    const saved = await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '123456', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'production', enabled: true });
    expect(saved.status).toBe(200);
    const stored = await it_.payments.prisma.qpaySettings.findUniqueOrThrow({ where: { id: 1 } });
    expect(stored.qpayClientSecret).not.toContain('123456');
    expect(JSON.stringify(saved.body)).not.toContain('123456');

    // The masked value sent back as shown keeps the secret: invoices can still be made.
    const kept = await it_.call('POST', '/api/qpay/settings', { ...saved.body.settings, qpayClientSecret: saved.body.settings.qpayClientSecret, webhookPath: undefined, callbackPath: undefined, webhookUrl: undefined, callbackUrl: undefined, qpayClientSecretSet: undefined, qpayClientSecretUnreadable: undefined, updatedAt: undefined, webhookSecret: undefined, webhookSecretUnreadable: undefined, webhookSecretRotatedAt: undefined });
    expect(kept.status).toBe(200);
    expect((await it_.payments.prisma.qpaySettings.findUniqueOrThrow({ where: { id: 1 } })).qpayClientSecret).toBe(stored.qpayClientSecret);
    const invoiceId = await newInvoice(it_);
    expect((await it_.call('GET', `/api/qpay/invoice/${invoiceId}`)).body.status).toBe('pending');
    expect(it_.qpay.state.invoices.size).toBe(1);
    expect([...it_.qpay.state.invoices.values()][0].env).toBe('production');

    const badEnvironment = await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'x', qpayInvoiceCode: 'y', qpayEnvironment: 'staging', enabled: false });
    expect(badEnvironment.status).toBe(400);
    expect(JSON.stringify(badEnvironment.body)).toContain('Environment must be sandbox or production');
    const incomplete = await it_.call('POST', '/api/qpay/settings', { qpayClientId: '', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true });
    expect(incomplete).toMatchObject({ status: 400, body: { error: 'To enable QPay, fill in the client id, client secret and invoice code' } });

    await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true });
  });

  it('makes an invoice at QPay with our number and a per-invoice callback token, and shows the payment page its QR and bank links', async () => {
    const invoiceId = await newInvoice(it_, 38_000);
    expect(invoiceId).toMatch(/^INV-[A-Z0-9]{10}$/);
    const view = (await it_.call('GET', `/api/qpay/invoice/${invoiceId}`, undefined, {})).body;
    expect(view).toMatchObject({ invoiceId, status: 'pending', amount: 38_000, customerName: 'Бат-Эрдэнэ', description: 'Netflix Premium 1 сар', paidAt: null });
    expect(view.qrImage).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(view.paymentUrls.length).toBeGreaterThan(5);
    expect(view.paymentUrls[0]).toEqual({ name: expect.any(String), description: expect.any(String), logo: expect.stringMatching(/^https:/), link: expect.stringContaining('qPay_QRcode=') });

    const atQpay = [...it_.qpay.state.invoices.values()].find((invoice) => invoice.senderInvoiceNo === invoiceId)!;
    expect(atQpay.amount).toBe(38_000);
    const record = await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
    expect(atQpay.callbackUrl).toBe(`${it_.system.url('payments')}/api/qpay/callback/${invoiceId}?token=${record.callbackToken}`);
    expect(record.callbackToken).toMatch(/^[0-9a-f]{48}$/);

    expect((await it_.call('GET', '/api/qpay/invoice/INV-0000000000', undefined, {})).status).toBe(404);
    expect((await it_.call('GET', '/api/qpay/invoice/not-an-id', undefined, {})).status).toBe(400);
  });

  it('answers one invoice per reference, also to ten requests at once', async () => {
    const body = {
      reference: 'streaming-invoice:77', description: 'Disney+ 3 сар', amount: 60_000,
      payer: { name: 'Сараа', email: 'saraa@example.mn', phone: null, subscriberId: '7654321' },
      order: { kind: 'streaming', serviceCode: 'DPS', months: 3, email: 'saraa@example.mn', streamingInvoiceId: 77 },
    };
    const before = it_.qpay.state.invoices.size;
    const replies = await Promise.all(Array.from({ length: 10 }, () => it_.call('POST', '/internal/payments/invoices', body, asStreamingKeys)));
    expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((reply) => reply.body.invoice.invoiceId)).size).toBe(1);
    expect(replies.filter((reply) => reply.body.created)).toHaveLength(1);
    expect(it_.qpay.state.invoices.size).toBe(before + 1);
    expect(replies[0].body.invoice.order).toEqual(body.order);
  });

  it('approves a pending invoice once, recording who approved it, and refuses a second approval', async () => {
    const invoiceId = await newInvoice(it_);
    const approvals = await Promise.all(Array.from({ length: 5 }, () => it_.call('POST', `/api/admin/invoices/${invoiceId}/approve`)));
    expect(approvals.filter((reply) => reply.status === 200)).toHaveLength(1);
    expect(approvals.filter((reply) => reply.status === 409)).toHaveLength(4);
    const approved = approvals.find((reply) => reply.status === 200)!.body.invoice;
    expect(approved).toMatchObject({ status: 'paid', approvedBy: 'admin@example.com', paymentId: null });
    expect(await it_.paidEvents(invoiceId)).toBe(1);
    const event = await it_.payments.prisma.$queryRawUnsafe<{ payload: any }[]>(`SELECT payload FROM payments.outbox_events WHERE payload->>'invoiceId' = $1`, invoiceId);
    expect(event[0].payload).toMatchObject({ invoiceId, approvedBy: 'admin@example.com', amount: 35_000, payer: { subscriberId: '1234567' }, order: { kind: 'custom', productName: 'Netflix Premium 1 сар' } });
    expect((await it_.call('GET', '/api/qpay/logs')).body.data.some((log: { type: string; reference: string }) => log.type === 'approve' && log.reference === invoiceId)).toBe(true);
  });

  it('deletes a pending invoice (cancelled at QPay, gone from the page and lists) and refuses to delete a paid one', async () => {
    const invoiceId = await newInvoice(it_);
    expect((await it_.call('DELETE', `/api/admin/invoices/${invoiceId}`)).status).toBe(200);
    const atQpay = [...it_.qpay.state.invoices.values()].find((invoice) => invoice.senderInvoiceNo === invoiceId)!;
    expect(it_.qpay.state.statusOf(atQpay)).toBe('CANCELED');
    expect((await it_.call('GET', `/api/qpay/invoice/${invoiceId}`, undefined, {})).status).toBe(404);
    expect((await it_.call('GET', '/api/qpay/invoices/pending')).body.data.map((i: { invoiceId: string }) => i.invoiceId)).not.toContain(invoiceId);
    expect(await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } })).toMatchObject({ status: 'cancelled', deletedAt: expect.any(Date) });

    const paidId = await newInvoice(it_);
    await it_.call('POST', `/api/admin/invoices/${paidId}/approve`);
    expect(await it_.call('DELETE', `/api/admin/invoices/${paidId}`)).toMatchObject({ status: 409, body: { error: 'A paid invoice cannot be deleted' } });
  });

  it('names QPay refusing the merchant credentials, and works again once they are put right', async () => {
    await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayClientSecret: 'not-the-secret', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true });
    const refused = await it_.call('POST', '/api/qpay/create-invoice', { customer_name: 'A', product_name: 'B', amount: 1000 });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatch(/^QPay refused POST \/auth\/token: AUTHENTICATION_FAILED/);
    await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayClientSecret: '123456', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true });
    expect(await newInvoice(it_)).toMatch(/^INV-/);
  });

  it('says clearly when QPay is switched off, and keeps its settings across a restart', async () => {
    await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: false });
    const refused = await it_.call('POST', '/api/qpay/create-invoice', { customer_name: 'A', product_name: 'B', amount: 1000 });
    expect(refused).toMatchObject({ status: 503, body: { error: 'QPay is not enabled: turn it on in Bank payments → Settings' } });
    await it_.restart();
    expect((await it_.call('GET', '/api/qpay/settings')).body).toMatchObject({ enabled: false, qpayClientSecretSet: true, qpayEnvironment: 'sandbox' });
    await it_.call('POST', '/api/qpay/settings', { qpayClientId: 'TEST_MERCHANT', qpayInvoiceCode: 'TEST_INVOICE', qpayEnvironment: 'sandbox', enabled: true });
    expect(await newInvoice(it_)).toMatch(/^INV-/);
  });
});
