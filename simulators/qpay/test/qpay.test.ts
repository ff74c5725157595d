import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listen } from '@bo/sim-kit';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildQpaySimulator } from '../src/app';

const sim = buildQpaySimulator({ seed: false });
let root = '';
let base = '';

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const call = async (path: string, init: { method?: string; token?: string; auth?: string; body?: unknown; prefix?: string } = {}) => {
  const response = await fetch(`${root}${init.prefix ?? '/v2'}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: init.auth ?? `Bearer ${init.token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
};
const control = async (path: string, body: unknown = {}) => {
  const response = await fetch(`${root}/__sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};
const login = async (prefix = '/v2') => (await call('/auth/token', { method: 'POST', auth: basic('TEST_MERCHANT', '123456'), prefix })).body;
const invoiceInput = (extra: Record<string, unknown> = {}) => ({
  invoice_code: 'TEST_INVOICE',
  sender_invoice_no: 'ORD-1',
  invoice_receiver_code: 'terminal',
  invoice_description: 'Netflix Premium 1 сар',
  amount: 35000,
  callback_url: `${merchantUrl}/qpay/callback?order=ORD-1`,
  ...extra,
});
let token = '';
const newInvoice = async (extra: Record<string, unknown> = {}) => (await call('/invoice', { method: 'POST', token, body: invoiceInput(extra) })).body;
const check = (invoiceId: string, offset = { page_number: 1, page_limit: 100 }) =>
  call('/payment/check', { method: 'POST', token, body: { object_type: 'INVOICE', object_id: invoiceId, offset } });

// The merchant: records every callback and answers SUCCESS, like reference clients.
let merchant: Server;
let merchantUrl = '';
const received: { method: string; url: string; body: string; at: number }[] = [];
const readBody = async (request: IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
};
const waitFor = async (predicate: () => boolean, ms = 3000) => {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeAll(async () => {
  merchant = createServer(async (request, response) => {
    received.push({ method: request.method!, url: request.url!, body: await readBody(request), at: Date.now() });
    response.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as { port: number }).port}`;
  root = await listen(sim.app);
  base = `${root}/v2`;
});
afterAll(async () => {
  await sim.app.close();
  merchant.close();
});
beforeEach(async () => {
  await control('reset');
  received.length = 0;
  token = (await login()).access_token;
});

describe('auth', () => {
  it('issues tokens whose expires_in values are absolute epoch seconds', async () => {
    const before = Math.floor(Date.now() / 1000);
    const tokens = await login();
    const after = Math.floor(Date.now() / 1000);
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'get_token', 'not-before-policy': '0', session_state: 'prod_new' });
    // Issued between the two looks at the clock, for a day.
    expect(tokens.expires_in).toBeGreaterThanOrEqual(before + 86_400);
    expect(tokens.expires_in).toBeLessThanOrEqual(after + 86_400);
    expect(tokens.refresh_expires_in).toBeGreaterThan(tokens.expires_in);
    expect(tokens.access_token.split('.')).toHaveLength(3);
  });

  it('rejects bad Basic credentials with AUTHENTICATION_FAILED, or CLIENT_NOTFOUND when set', async () => {
    const bad = await call('/auth/token', { method: 'POST', auth: basic('TEST_MERCHANT', 'wrong') });
    expect(bad).toMatchObject({ status: 401, body: { error: 'AUTHENTICATION_FAILED' } });
    await control('options', { badBasicError: 'CLIENT_NOTFOUND' });
    expect((await call('/auth/token', { method: 'POST', auth: basic('nobody', 'x') })).body.error).toBe('CLIENT_NOTFOUND');
  });

  it('expires access tokens after the settable TTL and refreshes with the refresh token', async () => {
    // A token lives its TTL from when it was issued: expires_in (absolute seconds) says when.
    await control('options', { tokenTtlSeconds: 60 });
    const before = Math.floor(Date.now() / 1000);
    const lasting = await login();
    expect(lasting.expires_in).toBeGreaterThanOrEqual(before + 60);
    expect(lasting.expires_in).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 60);
    expect((await call('/invoice/none', { token: lasting.access_token })).body.error).toBe('INVOICE_NOTFOUND');
    // A token of 1 s: refused once the moment its expires_in names has passed, however long that took to come.
    await control('options', { tokenTtlSeconds: 1 });
    const shortBefore = Math.floor(Date.now() / 1000);
    const tokens = await login();
    expect(tokens.expires_in).toBeGreaterThanOrEqual(shortBefore + 1);
    expect(tokens.expires_in).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    // expires_in is whole seconds, rounded down: the token ends within the second after it.
    while (Date.now() < (tokens.expires_in + 1) * 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await call('/invoice/none', { token: tokens.access_token })).toMatchObject({ status: 401, body: { error: 'NO_CREDENDIALS' } });
    expect((await call('/invoice/none', { token: lasting.access_token })).body.error).toBe('INVOICE_NOTFOUND');
    expect((await call('/auth/refresh', { method: 'POST', token: tokens.access_token })).status).toBe(401);
    const refreshed = await call('/auth/refresh', { method: 'POST', token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await call('/invoice/none', { token: refreshed.body.access_token })).status).toBe(404);
  });

  it('answers NO_CREDENDIALS (or NO_CREDENTIALS) for unknown, revoked and other-environment tokens', async () => {
    expect(await call('/invoice/x', { token: 'made-up' })).toMatchObject({ status: 401, body: { error: 'NO_CREDENDIALS' } });
    expect((await call('/invoice/x', { token, prefix: '/sandbox/v2' })).status).toBe(401);
    expect((await control('tokens/revoke', { kind: 'access' })).body.revoked).toBe(1);
    expect((await call('/invoice/x', { token })).status).toBe(401);
    await control('options', { noCredentialsError: 'NO_CREDENTIALS' });
    expect((await call('/invoice/x', { token })).body.error).toBe('NO_CREDENTIALS');
  });

  it('serves the sandbox at /sandbox/v2 with its own session_state', async () => {
    const sandbox = await login('/sandbox/v2');
    expect(sandbox.session_state).toBe('sandbox');
    const created = await call('/invoice', { method: 'POST', token: sandbox.access_token, body: invoiceInput(), prefix: '/sandbox/v2' });
    expect(created.status).toBe(200);
    expect((await call(`/invoice/${created.body.invoice_id}`, { token })).status).toBe(404);
  });
});

describe('invoices', () => {
  it('creates an invoice with an EMV qr_text, a real QR PNG that decodes back, a short URL and bank deep links', async () => {
    const created = await newInvoice();
    expect(created.invoice_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.qr_text.startsWith('000201')).toBe(true);
    expect(created.qr_text).toContain('5303496');
    expect(created.qPay_shortUrl).toMatch(/^https:\/\/s\.qpay\.mn\/\S+$/);
    expect(created.qr_image.startsWith('data:')).toBe(false);
    const png = Buffer.from(created.qr_image, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const image = PNG.sync.read(png);
    expect(image.width).toBe(image.height);
    expect(image.width).toBeGreaterThanOrEqual(200);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(created.qr_text);
    expect(created.urls.length).toBeGreaterThan(10);
    for (const url of created.urls) expect(url.link).toMatch(new RegExp(`^[A-Za-z-]+://q\\?qPay_QRcode=${created.qr_text}$`));
    expect(created.urls.find((u: { name: string }) => u.name === 'Khan bank')).toMatchObject({ description: 'Хаан банк', logo: expect.stringMatching(/^https:\/\//) });
  });

  it('validates required fields, lengths, the invoice code and the amount', async () => {
    const { sender_invoice_no: _omit, ...missing } = invoiceInput();
    expect(await call('/invoice', { method: 'POST', token, body: missing })).toMatchObject({ status: 400, body: { error: { sender_invoice_no: { type: 'REQUIRED' } } } });
    expect((await call('/invoice', { method: 'POST', token, body: invoiceInput({ invoice_description: 'x'.repeat(256) }) })).body.error.invoice_description.type).toBe('MAX_LENGTH');
    expect((await call('/invoice', { method: 'POST', token, body: invoiceInput({ invoice_code: 'NOPE' }) })).body.error).toBe('INVOICE_CODE_INVALID');
    expect((await call('/invoice', { method: 'POST', token, body: invoiceInput({ amount: 0 }) })).body.error).toBe('INVALID_AMOUNT');
    expect((await call('/invoice', { method: 'POST', token, body: invoiceInput({ amount: -5 }) })).status).toBe(400);
  });

  it('creates a second invoice for a duplicate sender_invoice_no', async () => {
    const first = await newInvoice();
    const second = await newInvoice();
    expect(second.invoice_id).not.toBe(first.invoice_id);
    expect(sim.state.invoices.size).toBe(2);
  });

  it('shows an invoice with mixed string/number amounts and a line made from the description', async () => {
    const { invoice_id } = await newInvoice();
    const { status, body } = await call(`/invoice/${invoice_id}`, { token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ invoice_id, invoice_status: 'OPEN', total_amount: '35000.00', gross_amount: 35000, tax_amount: 0, discount_amount: 0, sender_invoice_no: 'ORD-1' });
    expect(body.expiry_date).toBeTruthy();
    expect(body.lines).toEqual([expect.objectContaining({ line_description: 'Netflix Premium 1 сар', line_quantity: '1.00', line_unit_price: '35000.00' })]);
    expect(await call('/invoice/00000000-0000-4000-8000-000000000000', { token })).toMatchObject({ status: 404, body: { error: 'INVOICE_NOTFOUND' } });
  });

  it('cancels with {} and answers INVOICE_ALREADY_CANCELED, INVOICE_PAID', async () => {
    const { invoice_id } = await newInvoice();
    const cancel = await call(`/invoice/${invoice_id}`, { method: 'DELETE', token });
    expect(cancel).toMatchObject({ status: 200, body: {} });
    expect((await call(`/invoice/${invoice_id}`, { token })).body.invoice_status).toBe('CANCELED');
    expect(await call(`/invoice/${invoice_id}`, { method: 'DELETE', token })).toMatchObject({ status: 400, body: { error: 'INVOICE_ALREADY_CANCELED' } });
    const paid = await newInvoice();
    await control(`invoices/${paid.invoice_id}/pay`, { callback: 'none' });
    expect(await call(`/invoice/${paid.invoice_id}`, { method: 'DELETE', token })).toMatchObject({ status: 400, body: { error: 'INVOICE_PAID' } });
  });
});

describe('payment check', () => {
  it('answers {count:0, rows:[]} without paid_amount while unpaid', async () => {
    const { invoice_id } = await newInvoice();
    const { status, body } = await check(invoice_id);
    expect(status).toBe(200);
    expect(body).toEqual({ count: 0, rows: [] });
  });

  it('lists one row per partial payment with string amounts and paid_amount as their sum; status CLOSED or PAID', async () => {
    const { invoice_id } = await newInvoice({ allow_partial: true });
    await control(`invoices/${invoice_id}/pay`, { amount: 15000, callback: 'none' });
    expect((await call(`/invoice/${invoice_id}`, { token })).body.invoice_status).toBe('OPEN');
    await control(`invoices/${invoice_id}/pay`, { callback: 'none' });
    const { body } = await check(invoice_id);
    expect(body.count).toBe(2);
    expect(body.paid_amount).toBe(35000);
    expect(body.rows.map((r: { payment_amount: string }) => r.payment_amount)).toEqual(['15000.00', '20000.00']);
    expect(body.rows[0]).toMatchObject({ payment_status: 'PAID', payment_currency: 'MNT', payment_type: 'P2P', payment_id: expect.stringMatching(/^\d{15}$/) });
    expect(body.rows[0].p2p_transactions[0]).toMatchObject({ amount: '15000.00', currency: 'MNT' });
    expect((await call(`/invoice/${invoice_id}`, { token })).body.invoice_status).toBe('CLOSED');
    await control('options', { paidStatus: 'PAID' });
    expect((await call(`/invoice/${invoice_id}`, { token })).body.invoice_status).toBe('PAID');
    expect((await call(`/payment/${body.rows[0].payment_id}`, { token })).body).toMatchObject({ object_type: 'INVOICE', object_id: invoice_id });
  });

  it('refunds a card payment (REFUNDED in the check, out of paid_amount), refuses a bank transfer with PAYMENT_SETTLED, and a second refund with PAYMENT_ALREADY_CANCELED', async () => {
    const card = await newInvoice();
    const paidByCard = (await control(`invoices/${card.invoice_id}/pay`, { callback: 'none', type: 'CARD' })).body.payment_id as string;
    const refund = (paymentId: string) => call(`/payment/refund/${paymentId}`, { method: 'DELETE', token, body: { note: 'refund' } });
    expect(await refund(paidByCard)).toMatchObject({ status: 200, body: {} });
    const { body } = await check(card.invoice_id);
    expect(body.rows[0]).toMatchObject({ payment_id: paidByCard, payment_status: 'REFUNDED', payment_type: 'CARD', p2p_transactions: [] });
    expect(body.paid_amount).toBe(0);
    expect(await refund(paidByCard)).toMatchObject({ status: 400, body: { error: 'PAYMENT_ALREADY_CANCELED' } });

    const transfer = await newInvoice();
    const paidByTransfer = (await control(`invoices/${transfer.invoice_id}/pay`, { callback: 'none' })).body.payment_id as string;
    expect(await refund(paidByTransfer)).toMatchObject({ status: 400, body: { error: 'PAYMENT_SETTLED' } });
    expect((await check(transfer.invoice_id)).body.rows[0].payment_status).toBe('PAID');
    expect((await refund('123456789012345')).body.error).toBe('PAYMENT_NOTFOUND');
  });

  it('answers the nested field error for page_limit < 1, INVALID_OBJECT_TYPE and INVOICE_NOTFOUND', async () => {
    const { invoice_id } = await newInvoice();
    expect(await check(invoice_id, { page_number: 1, page_limit: 0 })).toMatchObject({
      status: 400,
      body: { error: { page_limit: { type: 'MIN_NUMBER', message: 'Number min value [1]!' } } },
    });
    const wrongType = await call('/payment/check', { method: 'POST', token, body: { object_type: 'ORDER', object_id: invoice_id } });
    expect(wrongType).toMatchObject({ status: 400, body: { error: 'INVALID_OBJECT_TYPE' } });
    expect((await check('00000000-0000-4000-8000-000000000000')).body.error).toBe('INVOICE_NOTFOUND');
  });
});

describe('callbacks', () => {
  it('GETs the callback URL with its own query kept and qpay_payment_id appended, and records the answer', async () => {
    const { invoice_id } = await newInvoice();
    const paid = await control(`invoices/${invoice_id}/pay`, {});
    expect(received).toHaveLength(1);
    expect(received[0].method).toBe('GET');
    expect(received[0].url).toBe(`/qpay/callback?order=ORD-1&qpay_payment_id=${paid.body.payment_id}`);
    expect(sim.state.callbacks[0]).toMatchObject({ invoiceId: invoice_id, status: 200, body: 'SUCCESS', method: 'GET' });
    const page = await (await fetch(`${root}/__sim/`)).text();
    expect(page).toContain('SUCCESS');
  });

  it('POSTs JSON, sends duplicates, and delivers late callbacks out of order', async () => {
    const { invoice_id } = await newInvoice({ allow_partial: true });
    await control(`invoices/${invoice_id}/pay`, { amount: 1000, callback: 'post', duplicates: 3 });
    expect(received.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(JSON.parse(received[0].body)).toMatchObject({ object_type: 'INVOICE', object_id: invoice_id, payment_id: expect.any(String) });
    expect(received[0].url).toBe('/qpay/callback?order=ORD-1');
    received.length = 0;

    const late = await control(`invoices/${invoice_id}/pay`, { amount: 1000, delayMs: 300 });
    expect(late.body.callbacks).toBe('pending');
    const soon = await control(`invoices/${invoice_id}/pay`, { amount: 1000, delayMs: 50 });
    await waitFor(() => received.length === 2);
    expect(received[0].url).toContain(soon.body.payment_id);
    expect(received[1].url).toContain(late.body.payment_id);
  });

  it('can lose the callback and records a merchant that is down', async () => {
    const lost = await newInvoice();
    await control(`invoices/${lost.invoice_id}/pay`, { callback: 'none' });
    expect(received).toHaveLength(0);
    const down = await newInvoice({ callback_url: 'http://127.0.0.1:1/cb' });
    await control(`invoices/${down.invoice_id}/pay`, {});
    expect(sim.state.callbacks[0].error).toBeTruthy();
  });
});

describe('injected faults (what a client must survive)', () => {
  it('answers 500 SYSTEM_BUSY on the chosen route once, then works', async () => {
    await control('faults/preset', { kind: 'system_busy', route: '/payment/check', times: 1 });
    const { invoice_id } = await newInvoice();
    expect(await check(invoice_id)).toMatchObject({ status: 500, body: { error: 'SYSTEM_BUSY' } });
    expect((await check(invoice_id)).status).toBe(200);
  });

  it('answers an HTML 502 like nginx', async () => {
    await control('faults/preset', { kind: 'bad_gateway_html', route: '/invoice', times: 1 });
    const response = await fetch(`${base}/invoice`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(invoiceInput()) });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('<html>');
  });

  it('holds a response longer than the client timeout', async () => {
    await control('faults/preset', { kind: 'slow', route: '/auth/token', delayMs: 1500, times: 1 });
    await expect(fetch(`${base}/auth/token`, { method: 'POST', headers: { authorization: basic('TEST_MERCHANT', '123456') }, signal: AbortSignal.timeout(300) })).rejects.toThrow();
  });

  it('resets the connection', async () => {
    await control('faults/preset', { kind: 'reset', route: '/auth/token', env: 'sandbox', times: 1 });
    await expect(fetch(`${root}/sandbox/v2/auth/token`, { method: 'POST', headers: { authorization: basic('TEST_MERCHANT', '123456') } })).rejects.toThrow();
    expect((await login('/sandbox/v2')).access_token).toBeTruthy();
  });
});

describe('seed', () => {
  it('seeds open, paid and cancelled invoices for the shop by default', async () => {
    const seeded = buildQpaySimulator();
    await seeded.ready;
    const statuses = [...seeded.state.invoices.values()].map((i) => seeded.state.statusOf(i));
    expect(statuses).toEqual(['OPEN', 'CLOSED', 'CANCELED', 'OPEN']);
    await seeded.app.close();
  });
});
