import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@bo/platform/testing/eventually';
import { asService } from '@bo/platform/testing/identity';
import type { RunView } from '@bo/proto';
import { qpayFaultRules } from '@bo/sim-qpay';
import { newInvoice, startPaymentsSystem, type PaymentsSystem } from './system';

/** Calls our callback URL the way QPay does (GET, our query kept, qpay_payment_id appended). */
async function callback(handle: PaymentsSystem, invoiceId: string, token?: string, paymentId = '459812345678901') {
  const record = await handle.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
  const url = new URL(`${handle.system.url('payments')}/api/qpay/callback/${invoiceId}`);
  url.searchParams.set('token', token ?? record.callbackToken);
  url.searchParams.set('qpay_payment_id', paymentId);
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

const logsOf = async (handle: PaymentsSystem, invoiceId: string | null) =>
  handle.payments.prisma.qpayWebhookLog.findMany({ where: { type: 'callback', reference: invoiceId }, orderBy: { id: 'asc' } });

describe('payments: a callback is a hint, checked with QPay; the paid transition happens once', () => {
  let it_: PaymentsSystem;

  beforeAll(async () => {
    // The reconciliation schedule's own checks (every 30 s by default) are out of the way: these tests count QPay's checks.
    it_ = await startPaymentsSystem('payments_callbacks', { qpay: { tokenTtlSeconds: 3 }, env: { RECONCILE_EVERY_MS: '3600000' } });
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('turns 100 concurrent and then 100 sequential duplicate callbacks into one paid transition and one event, with no 5xx', async () => {
    const invoiceId = await newInvoice(it_);
    await it_.pay(invoiceId, { callback: 'none' });
    const concurrent = await Promise.all(Array.from({ length: 100 }, () => callback(it_, invoiceId)));
    const sequential = [];
    for (let i = 0; i < 100; i++) sequential.push(await callback(it_, invoiceId));
    for (const reply of [...concurrent, ...sequential]) expect(reply).toEqual({ status: 200, body: { status: 'SUCCESS', message: 'paid' } });
    expect(await it_.paidEvents(invoiceId)).toBe(1);
    const logs = await logsOf(it_, invoiceId);
    expect(logs).toHaveLength(200);
    expect(logs.filter((log) => log.status === 'accepted')).toHaveLength(1);
    const invoice = await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
    expect(invoice).toMatchObject({ status: 'paid', paymentId: expect.stringMatching(/^\d+$/), approvedBy: null });
  });

  it('takes the callbacks QPay itself sends, GET and POST, duplicated', async () => {
    const viaGet = await newInvoice(it_);
    await it_.pay(viaGet, { callback: 'get', duplicates: 3 });
    const viaPost = await newInvoice(it_);
    await it_.pay(viaPost, { callback: 'post', duplicates: 2 });
    for (const invoiceId of [viaGet, viaPost]) {
      expect((await it_.call('GET', `/api/qpay/invoice/${invoiceId}/status`, undefined, {})).body.status).toBe('paid');
      expect(await it_.paidEvents(invoiceId)).toBe(1);
    }
    const answered = it_.qpay.state.callbacks.filter((delivery) => delivery.status !== undefined);
    expect(answered.every((delivery) => delivery.status === 200)).toBe(true);
  });

  it('changes nothing for forged or wrong callbacks, and logs each one', async () => {
    // An unpaid invoice: QPay's check says nothing arrived.
    const unpaid = await newInvoice(it_);
    expect(await callback(it_, unpaid)).toEqual({ status: 200, body: { status: 'SUCCESS', message: 'Not paid yet' } });

    // A wrong token on an invoice that IS paid at QPay: refused before QPay is even asked.
    const paidAtQpay = await newInvoice(it_);
    await it_.pay(paidAtQpay, { callback: 'none' });
    expect((await callback(it_, paidAtQpay, 'f'.repeat(48))).status).toBe(403);
    expect((await callback(it_, paidAtQpay, '')).status).toBe(403);

    // An unknown invoice.
    expect((await fetch(`${it_.system.url('payments')}/api/qpay/callback/INV-ZZZZZZZZZZ?token=x`)).status).toBe(404);

    // Less than the amount: flagged for an admin, not paid, no event.
    const partial = await newInvoice(it_, 40_000);
    await it_.pay(partial, { amount: 15_000, callback: 'none' });
    expect((await callback(it_, partial)).status).toBe(200);

    // A body that claims PAID on the legacy path is not believed either.
    expect((await it_.call('POST', '/api/qpay/callback', { invoice_id: unpaid, payment_status: 'PAID', payment_id: '1' }, {})).body.message).toMatch(/^Not paid yet/);

    for (const invoiceId of [unpaid, paidAtQpay, partial]) {
      const invoice = await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
      expect(invoice.status).toBe('pending');
      expect(await it_.paidEvents(invoiceId)).toBe(0);
    }
    expect((await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: partial } })).flag).toBe('Paid 15,000₮ of 40,000₮: a partial payment. Check with the bank, then approve or delete.');
    expect((await logsOf(it_, paidAtQpay)).map((log) => [log.status, log.errorMessage])).toEqual([['rejected', 'Wrong or missing callback token'], ['rejected', 'Wrong or missing callback token']]);
    expect((await logsOf(it_, null)).some((log) => log.status === 'rejected' && log.errorMessage === 'Unknown invoice INV-ZZZZZZZZZZ')).toBe(true);
    expect((await logsOf(it_, partial))[0]).toMatchObject({ status: 'ignored' });
    // The token never reaches the log.
    const token = (await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: unpaid } })).callbackToken;
    expect(JSON.stringify(await it_.payments.prisma.qpayWebhookLog.findMany())).not.toContain(token);
  });

  it('lets 50 legacy notices of one invoice at once cost QPay at most one check, and none within 10 s of it; a paid one completes once a check is due', async () => {
    const invoiceId = await newInvoice(it_);
    await it_.pay(invoiceId, { callback: 'none' });
    const checksBefore = it_.qpayCalls('POST', '/payment/check');
    const notice = (id: string, address: string) => it_.call('POST', '/api/qpay/callback', { invoice_id: id, payment_status: 'PAID' }, { 'x-forwarded-for': address });
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => notice(invoiceId, `10.50.0.${i + 1}`)));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    expect(it_.qpayCalls('POST', '/payment/check') - checksBefore).toBe(1);
    // The one check found the payment: paid once, and every other notice was answered without QPay.
    expect(replies.filter((reply) => reply.body.message === 'paid')).not.toHaveLength(0);
    expect(await it_.paidEvents(invoiceId)).toBe(1);

    // Unpaid: a second notice within 10 s of the last check asks QPay nothing; once 10 s have passed, one check again.
    const unpaid = await newInvoice(it_);
    expect((await notice(unpaid, '10.50.1.1')).body.message).toBe('Not paid yet');
    const afterFirst = it_.qpayCalls('POST', '/payment/check');
    expect((await notice(unpaid, '10.50.1.2')).body.message).toBe('Not paid yet (checked with QPay moments ago)');
    expect(it_.qpayCalls('POST', '/payment/check')).toBe(afterFirst);
    await it_.pay(unpaid, { callback: 'none' });
    await it_.payments.prisma.qpayInvoice.update({ where: { invoiceId: unpaid }, data: { lastCheckedAt: new Date(Date.now() - 10_001) } });
    expect((await notice(unpaid, '10.50.1.3')).body.message).toBe('paid');
    expect(it_.qpayCalls('POST', '/payment/check')).toBe(afterFirst + 1);
  });

  it('completes a paid invoice whose callback was lost: on the reconciliation run, and on the payment page', async () => {
    const lostA = await newInvoice(it_);
    const lostB = await newInvoice(it_);
    await it_.pay(lostA, { callback: 'none' });
    await it_.pay(lostB, { callback: 'none' });
    const outcome = await it_.payments.exposed.reconciliation.runOnce();
    expect(outcome.completed).toBeGreaterThanOrEqual(2);
    expect(await it_.paidEvents(lostA)).toBe(1);
    expect(await it_.paidEvents(lostB)).toBe(1);

    const viaPage = await newInvoice(it_);
    await it_.pay(viaPage, { callback: 'none' });
    await it_.payments.prisma.qpayInvoice.update({ where: { invoiceId: viaPage }, data: { lastCheckedAt: null } });
    expect((await it_.call('GET', `/api/qpay/invoice/${viaPage}`, undefined, {})).body.status).toBe('paid');
  });

  it('cancels an unpaid invoice past its expiry at QPay and here, but completes one paid at the last moment', async () => {
    const unpaid = await newInvoice(it_);
    const paidLate = await newInvoice(it_);
    await it_.pay(paidLate, { callback: 'none' });
    await it_.payments.prisma.qpayInvoice.updateMany({ where: { invoiceId: { in: [unpaid, paidLate] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await it_.payments.exposed.reconciliation.runOnce();
    expect(await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: unpaid } })).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(Date), deletedAt: null });
    const atQpay = [...it_.qpay.state.invoices.values()].find((invoice) => invoice.senderInvoiceNo === unpaid)!;
    expect(it_.qpay.state.statusOf(atQpay)).toBe('CANCELED');
    expect((await it_.payments.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId: paidLate } })).status).toBe('paid');
    // A cancelled invoice is still shown (not deleted), and a late callback for it changes nothing.
    expect((await it_.call('GET', `/api/qpay/invoice/${unpaid}`, undefined, {})).body.status).toBe('cancelled');
    expect((await callback(it_, unpaid)).body).toEqual({ status: 'SUCCESS', message: 'cancelled' });
  });

  it('lets an admin re-check a missed order from /qpay', async () => {
    const missed = await newInvoice(it_);
    await it_.pay(missed, { callback: 'none' });
    const rechecked = await it_.call('POST', `/api/qpay/invoices/${missed}/check`);
    expect(rechecked.body).toMatchObject({ paidAmount: 35_000, message: 'Paid 35,000₮: the order is completed', invoice: { status: 'paid' } });
    expect((await it_.call('POST', `/api/qpay/invoices/${missed}/check`)).body.message).toBe('The invoice is paid');
  });

  it('keeps working across token expiry and a revoked token, retries QPay being busy or over its limit, and never sends a create twice after a timeout', async () => {
    await newInvoice(it_);
    await new Promise((resolve) => setTimeout(resolve, 3200)); // past the 3-second token TTL
    await newInvoice(it_);
    await fetch(`${it_.qpayUrl}/__sim/tokens/revoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'access' }) });
    await newInvoice(it_);

    for (const rule of qpayFaultRules({ kind: 'system_busy', route: '/payment/check', times: 1 })) it_.qpay.faults.add(rule);
    const busy = await newInvoice(it_);
    await it_.pay(busy, { callback: 'none' });
    expect((await callback(it_, busy)).body.message).toBe('paid');

    // QPay publishes no rate limit; an over-limit 429 is waited out and the call repeated.
    it_.qpay.faults.add({ kind: 'status', status: 429, body: { error: 'TOO_MANY_REQUESTS', message: 'Too many requests' }, pathPrefix: '/sandbox/v2/payment/check', times: 1 });
    const limited = await newInvoice(it_);
    await it_.pay(limited, { callback: 'none' });
    expect((await callback(it_, limited)).body.message).toBe('paid');

    for (const rule of qpayFaultRules({ kind: 'bad_gateway_html', route: '/payment/check', times: 1 })) it_.qpay.faults.add(rule);
    const gatewayPage = await newInvoice(it_);
    await it_.pay(gatewayPage, { callback: 'none' });
    expect((await callback(it_, gatewayPage)).body.message).toBe('paid');

    // QPay holds the answer past our timeout (and may have made the invoice): a create is never resent.
    // Two one-shot slow rules: the second still waiting afterwards proves one request was sent.
    it_.qpay.faults.clear();
    for (let copy = 0; copy < 2; copy++) for (const rule of qpayFaultRules({ kind: 'slow', route: '/invoice', env: 'sandbox', method: 'POST', delayMs: 3000, times: 1 })) it_.qpay.faults.add(rule);
    const slow = await it_.call('POST', '/api/qpay/create-invoice', { customer_name: 'A', product_name: 'B', amount: 1000 });
    expect(slow.status).toBe(503);
    expect(slow.body.error).toBe('QPay did not answer within 2000 ms (POST /invoice)');
    expect(it_.qpay.faults.list()).toHaveLength(1);
    it_.qpay.faults.clear();
  });
});

describe('payments: the reconciliation on its schedule', () => {
  let it_: PaymentsSystem;

  beforeAll(async () => {
    it_ = await startPaymentsSystem('payments_schedule', { env: { RECONCILE_EVERY_MS: '1000' } });
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('completes a paid invoice without any callback, by itself', async () => {
    const invoiceId = await newInvoice(it_);
    await it_.pay(invoiceId, { callback: 'none' });
    await eventually(async () => (await it_.paidEvents(invoiceId)) > 0, 20_000, 'the paid event from a scheduled check');
    expect(await it_.paidEvents(invoiceId)).toBe(1);
    // The check is logged just after the paid transition commits.
    const logged = await eventually(() => it_.payments.prisma.qpayWebhookLog.findFirst({ where: { reference: invoiceId, type: 'check' } }), 5_000, 'the reconciliation check in the log');
    expect(logged).toMatchObject({ status: 'accepted', requestData: { source: 'reconciliation' } });
    // Each tick is a qpay-reconciliation run on the scheduler; the one that found the payment counts
    // it, and it completes a moment after the paid event (the paid event leaves inside the run).
    const listRuns = async (): Promise<RunView[]> =>
      (await it_.payments.app.inject({ method: 'GET', url: '/internal/payments/runs?kind=qpay-reconciliation&limit=200', headers: asService('gateway') })).json().data;
    const foundIt = (run: RunView) => run.status === 'completed' && run.progress.counters.completed === 1;
    await eventually(async () => (await listRuns()).some(foundIt), 10_000, 'the run that found the payment, completed');
    const runs = await listRuns();
    expect(runs.every((run) => run.kind === 'qpay-reconciliation' && run.startedBy === 'schedule:qpay-reconciliation')).toBe(true);
    expect(runs.filter(foundIt)).toHaveLength(1);
  });
});
