import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_BODY_MAX_BYTES } from '@bo/platform';
import { startPaymentsSystem, type PaymentsSystem } from './system';

// The doors anyone may knock on: QPay's callbacks and the chat webhook. What they may cost us: no
// QPay invoice for a request the contract refuses, no log row over 8 KiB, no log older than 30 days.
const WEBHOOK_SECRET = 'a-chat-webhook-secret-of-at-least-32-chars';
const chatRequest = { user_id: '1234567', first_name: 'Бат', custom_fields: { invoice_code: 'PUBG Mobile 660 UC', invoice_id: 'MC-NUL-1', amount: '38000' } };

describe('payments: the public doors', () => {
  let it_: PaymentsSystem;
  const qpayRequests = async () => ((await (await fetch(`${it_.qpayUrl}/__sim/requests`)).json()) as { requests: unknown[] }).requests.length;
  const webhook = (body: string, contentType = 'application/json') =>
    fetch(`${it_.system.url('payments')}/api/qpay/webhook`, { method: 'POST', headers: { 'content-type': contentType, 'x-webhook-secret': WEBHOOK_SECRET }, body });

  beforeAll(async () => {
    it_ = await startPaymentsSystem('payments_public_doors', { env: { QPAY_WEBHOOK_SECRET: WEBHOOK_SECRET } });
  });
  afterAll(() => it_?.stop());

  it('refuses a chat order with a NUL byte in any field with 400 naming it, before QPay is asked: no orphan invoice', async () => {
    const before = await qpayRequests();
    for (const [field, body] of [
      ['first_name', { ...chatRequest, first_name: 'Бат\u0000' }],
      ['custom_fields.invoice_id', { ...chatRequest, custom_fields: { ...chatRequest.custom_fields, invoice_id: 'MC-\u0000' } }],
      ['custom_fields.invoice_code', { ...chatRequest, custom_fields: { ...chatRequest.custom_fields, invoice_code: 'PUBG\u0000' } }],
    ] as const) {
      const response = await webhook(JSON.stringify(body));
      expect(response.status, field).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe(`Invalid body: ${field}: must not contain a NUL character (U+0000)`);
    }
    expect(await qpayRequests()).toBe(before);
    expect(await it_.payments.prisma.qpayInvoice.count()).toBe(0);
    // The refusals are in the log, the NUL shown as U+FFFD (PostgreSQL keeps no NUL).
    const logged = await it_.payments.prisma.qpayWebhookLog.findMany({ where: { type: 'webhook', status: 'error' } });
    expect(logged).toHaveLength(3);
    expect(JSON.stringify(logged.map((row) => row.requestData))).toContain('Бат\uFFFD');
  });

  it('refuses a webhook body over 64 KiB (413) and JSON nested deeper than 32 (400), asking QPay nothing', async () => {
    const before = await qpayRequests();
    const big = await webhook(JSON.stringify({ ...chatRequest, first_name: 'x'.repeat(70_000) }));
    expect(big.status).toBe(413);
    const deep = await webhook(JSON.stringify({ ...chatRequest, extra: JSON.parse('['.repeat(40) + ']'.repeat(40)) }));
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { error: string }).error).toBe('Invalid body: JSON nested deeper than 32 levels');
    expect(await qpayRequests()).toBe(before);
    expect(await it_.payments.prisma.qpayInvoice.count()).toBe(0);
  });

  it('keeps at most 8 KiB of a logged callback body, marked as cut', async () => {
    const url = `${it_.system.url('payments')}/api/qpay/callback/INV-ZZZZZZZZZZ?token=t`;
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ payment_id: '1', note: 'n'.repeat(60_000) }) });
    expect(response.status).toBe(404);
    const [row] = await it_.payments.prisma.qpayWebhookLog.findMany({ where: { type: 'callback', errorMessage: 'Unknown invoice INV-ZZZZZZZZZZ' } });
    expect(typeof row.requestData).toBe('string');
    expect(Buffer.byteLength(JSON.stringify(row.requestData))).toBeLessThanOrEqual(LOG_BODY_MAX_BYTES);
    expect(row.requestData).toMatch(/^\{"method":"POST","invoiceId":"INV-ZZZZZZZZZZ","body":\{"payment_id":"1","note":"n+ …\[truncated: \d+ bytes\]$/);
  });

  it('keeps the callback log 30 days: its retention job (a platform job of payments) deletes older rows only', async () => {
    const days = (n: number) => new Date(Date.now() - n * 24 * 3_600_000);
    await it_.payments.prisma.qpayWebhookLog.createMany({
      data: [31, 45, 29].map((age) => ({ type: 'callback', reference: `aged-${age}`, status: 'rejected', createdAt: days(age) })),
    });
    expect(await it_.payments.exposed.logRetention.sweep()).toEqual({ qpay_webhook_logs: 2 });
    const aged = await it_.payments.prisma.qpayWebhookLog.findMany({ where: { reference: { startsWith: 'aged-' } } });
    expect(aged.map((row) => row.reference)).toEqual(['aged-29']);
  });
});
