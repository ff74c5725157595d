import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_QPAY_WEBHOOK_SECRET } from '@bo/platform/testing/services';
import { chatHeaders, startPaymentsSystem, type PaymentsSystem } from './system';

/** An address and a subscriber no other test (or suite, on the shared Redis) has used, so no rate limit carries over. */
const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const newSubscriber = () => String(randomInt(100_000_000, 999_999_999));

const chatRequest = (subscriber: string, reference: string, code: string, amount: string | number, extra: Record<string, unknown> = {}) => ({
  user_id: subscriber, first_name: 'Бат-Эрдэнэ', last_name: 'Болд', email: 'bat@example.mn', phone: '99112233',
  custom_fields: { invoice_code: code, invoice_id: reference, amount },
  ...extra,
});

describe('the chat payment webhook sells only at the listed price (issue 18 §1)', () => {
  let it_: PaymentsSystem;

  /** The chat flow's request, with the secret payments checks now (a test below rotates it). */
  const webhook = async (body: unknown, address = newAddress()) =>
    it_.call('POST', '/api/qpay/webhook', body, chatHeaders(address, await it_.payments.exposed.webhookSecret.current()));
  const invoiceOfReply = (reply: { body: any }) => (reply.body.content.messages[0].buttons[0].url as string).split('/payment/')[1];
  const invoicesAtQpay = () => it_.qpayCalls('POST', '/invoice');

  beforeAll(async () => {
    it_ = await startPaymentsSystem('payments_chat_webhook', { prices: true });
    for (const [duration, price] of [[1, 35_000], [12, 120_000]]) {
      const listed = await it_.system.call('streaming-keys', 'POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration, price });
      expect(listed.status).toBe(200);
    }
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('refuses a 12-month Netflix key for 1₮ with a 409 naming the listed price, and makes nothing at QPay; the listed price sells it', async () => {
    const subscriber = newSubscriber();
    const before = invoicesAtQpay();
    const cheap = await webhook(chatRequest(subscriber, 'MC-2001', 'NFX-12M', '1'));
    expect(cheap).toMatchObject({ status: 409, body: { error: 'Netflix 12 сар costs 120,000₮, not 1₮', details: { product: 'Netflix 12 сар', listedPrice: 120_000 } } });
    expect((await webhook(chatRequest(subscriber, 'MC-2001', 'NFX-12M', '119999'))).body.error).toBe('Netflix 12 сар costs 120,000₮, not 119,999₮');
    expect(invoicesAtQpay()).toBe(before);
    expect(await it_.payments.prisma.qpayInvoice.count({ where: { reference: `chat:${subscriber}:MC-2001` } })).toBe(0);

    // The refused request left the reference free: the listed price makes the invoice, at that price.
    const listed = await webhook(chatRequest(subscriber, 'MC-2001', 'NFX-12M', '120000'));
    expect(listed.status).toBe(200);
    expect(listed.body.content.messages[0].text).toContain('Netflix 12 сар — 120,000₮');
    const invoice = await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: invoiceOfReply(listed) } });
    expect(invoice).toMatchObject({ amount: 120_000, reference: `chat:${subscriber}:MC-2001`, userId: subscriber, metadata: { kind: 'streaming', serviceCode: 'NFX', months: 12, email: 'bat@example.mn', streamingInvoiceId: null } });
    expect([...it_.qpay.state.invoices.values()].find((atQpay) => atQpay.senderInvoiceNo === invoice.invoiceId)!.amount).toBe(120_000);
    expect(invoicesAtQpay()).toBe(before + 1);
  });

  it('charges any other product at the sheet price customers see (the sale price), found by name', async () => {
    const subscriber = newSubscriber();
    // YouTube Premium 1 сар: regular 19,000₮, on sale for 17,000₮.
    expect((await webhook(chatRequest(subscriber, 'MC-3001', 'YouTube Premium 1 сар', 19_000))).body.error).toBe('YouTube Premium 1 сар costs 17,000₮, not 19,000₮');
    const sold = await webhook(chatRequest(subscriber, 'MC-3001', 'youtube PREMIUM 1 САР', 17_000));
    expect(sold.status).toBe(200);
    const invoiceId = invoiceOfReply(sold);
    expect(await it_.payments.prisma.customPayment.findUniqueOrThrow({ where: { invoiceId } })).toMatchObject({ productName: 'YouTube Premium 1 сар', amount: 17_000, status: 'PENDING', subscriberId: subscriber });
  });

  it('answers 404 for a code or product with no listed price, 503 while a price list cannot be reached, and asks nothing of QPay for either', async () => {
    const subscriber = newSubscriber();
    const before = invoicesAtQpay();
    expect(await webhook(chatRequest(subscriber, 'MC-4001', 'NFX-6M', 60_000))).toMatchObject({ status: 404, body: { error: 'Netflix 6 сар (NFX-6M) has no listed price: it cannot be sold' } });
    expect(await webhook(chatRequest(subscriber, 'MC-4002', 'Mystery Box 9000', 5_000))).toMatchObject({ status: 404, body: { error: '"Mystery Box 9000" is not in the price list' } });

    for (const link of it_.priceLinks) {
      link.refuse();
      link.cutAll();
    }
    try {
      for (const code of ['NFX-1M', 'PUBG Mobile UC - 660 UC']) {
        const cut = await webhook(chatRequest(subscriber, `MC-4003-${code}`, code, 1));
        expect(cut.status).toBe(503);
        expect(cut.body.error).toMatch(/^Cannot read the (streaming )?price list right now, so no price can be charged/);
      }
    } finally {
      for (const link of it_.priceLinks) link.resume();
    }
    expect(invoicesAtQpay()).toBe(before);
    expect((await webhook(chatRequest(subscriber, 'MC-4004', 'NFX-1M', 35_000))).status).toBe(200);
  });

  it('gives a chat order reference to its first request only: parallel requests with other bodies get 409, the same body the same invoice', async () => {
    const subscriber = newSubscriber();
    const before = invoicesAtQpay();
    // Eight requests at once for one reference, each saying something else (a squatter's included).
    const bodies = Array.from({ length: 8 }, (_, i) => chatRequest(subscriber, 'MC-5001', 'NFX-1M', 35_000, { first_name: `Caller ${i}` }));
    const replies = await Promise.all(bodies.map((body) => webhook(body)));
    const winners = replies.flatMap((reply, i) => (reply.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const reply of replies.filter((r) => r.status !== 200)) {
      expect(reply).toMatchObject({ status: 409, body: { error: `The order reference chat:${subscriber}:MC-5001 was already used with other details: send the same request again, or use a new invoice_id` } });
    }
    expect(invoicesAtQpay()).toBe(before + 1);
    // The chat repeating its step gets the same link, and QPay is not asked again.
    const again = await webhook(bodies[winners[0]]);
    expect(invoiceOfReply(again)).toBe(invoiceOfReply(replies[winners[0]]));
    expect(invoicesAtQpay()).toBe(before + 1);
  });

  it('tests the webhook as the chat would send it, with the current secret, and shows the status code and the error', async () => {
    const sent = await it_.call('POST', '/api/qpay/test-webhook', chatRequest(newSubscriber(), 'MC-T-1', 'NFX-1M', '35000'));
    expect(sent.body).toMatchObject({ success: true, error: null, data: { statusCode: 200, response: { version: 'v2' } } });
    const refused = await it_.call('POST', '/api/qpay/test-webhook', { user_id: '1234567', custom_fields: { amount: 100 } });
    expect(refused.body).toMatchObject({ success: false, data: { statusCode: 400 } });
    expect(refused.body.error).toContain('invoice_code');
    const logs = (await it_.call('GET', '/api/qpay/logs?limit=5')).body.data;
    expect(logs[0]).toMatchObject({ type: 'webhook', status: 'error' });
  });

  it('refuses a request without the secret or with a wrong one (401) and asks nothing of anyone; Rotate replaces the secret at once', async () => {
    const before = invoicesAtQpay();
    const body = chatRequest(newSubscriber(), 'MC-6001', 'NFX-1M', 35_000);
    const address = newAddress();
    expect(await it_.call('POST', '/api/qpay/webhook', body, { 'x-forwarded-for': address })).toMatchObject({ status: 401, body: { error: 'Missing or wrong x-webhook-secret header' } });
    expect((await it_.call('POST', '/api/qpay/webhook', body, chatHeaders(address, `${TEST_QPAY_WEBHOOK_SECRET.slice(0, -1)}X`))).status).toBe(401);
    expect((await it_.call('POST', '/api/qpay/webhook', body, chatHeaders(address, 'guess'))).status).toBe(401);
    expect(invoicesAtQpay()).toBe(before);

    // The page shows it masked; the whole value only in the admin's POST.
    const settings = await it_.call('GET', '/api/qpay/settings');
    expect(settings.body).toMatchObject({ webhookSecret: `••••${TEST_QPAY_WEBHOOK_SECRET.slice(-4)}`, webhookSecretRotatedAt: null });
    expect(JSON.stringify(settings.body)).not.toContain(TEST_QPAY_WEBHOOK_SECRET);
    const revealed = await it_.call('POST', '/api/qpay/webhook-secret/reveal');
    expect(revealed.body).toEqual({ secret: TEST_QPAY_WEBHOOK_SECRET });
    expect(revealed.headers.get('cache-control')).toBe('no-store');
    expect((await it_.call('POST', '/api/qpay/webhook-secret/reveal', undefined, {})).status).toBe(401);
    const stored = await it_.payments.prisma.qpaySettings.findUniqueOrThrow({ where: { id: 1 } });
    expect(stored.webhookSecret).not.toContain(TEST_QPAY_WEBHOOK_SECRET);

    const rotated = await it_.call('POST', '/api/qpay/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    const fresh = (await it_.call('POST', '/api/qpay/webhook-secret/reveal')).body.secret as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.settings).toMatchObject({ webhookSecret: `••••${fresh.slice(-4)}`, webhookSecretRotatedAt: expect.any(String) });
    expect((await it_.call('POST', '/api/qpay/webhook', body, chatHeaders(address))).status).toBe(401);
    expect((await it_.call('POST', '/api/qpay/webhook', body, chatHeaders(address, fresh))).status).toBe(200);

    // The new secret is kept (sealed) across a restart, whatever the environment says.
    it_.payments = await it_.system.restart('payments');
    expect((await it_.call('POST', '/api/qpay/webhook-secret/reveal')).body.secret).toBe(fresh);
  });
});
