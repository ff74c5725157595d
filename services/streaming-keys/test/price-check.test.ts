import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { eventually, listPrice, startKeysSystem, type KeysSystem } from './system';

/** streaming-keys' signed identity, as its ServiceClient sends it to payments. */
const asStreamingKeys = asService('streaming-keys');

/**
 * Defence in depth (issue 18 §1): whatever made the invoice, a chat order paid below its listed
 * price never gets a key by itself. It waits as needing attention until an admin approves it
 * (Assign key) or refunds it. The 1₮ invoices here are made the way the old webhook made them.
 */
describe('streaming-keys: a payment below the price waits for an admin', () => {
  let it_: KeysSystem;

  /** A chat order of Netflix for 12 months invoiced at `amount` (bypassing the price), paid in full at QPay. */
  const underpaidOrder = async (subscriberId: string, amount: number, type: 'P2P' | 'CARD' = 'P2P') => {
    const made = await it_.system.call('payments', 'POST', '/internal/payments/invoices', {
      reference: `chat:${subscriberId}:OLD-1`, description: 'Netflix 12 сар', amount,
      payer: { name: 'Хямд', email: null, phone: null, subscriberId },
      order: { kind: 'streaming', serviceCode: 'NFX', months: 12, email: `${subscriberId}@example.mn`, streamingInvoiceId: null },
    }, asStreamingKeys);
    expect(made.status).toBe(200);
    const { invoiceId, qpayInvoiceId } = made.body.invoice;
    const paid = await fetch(`${it_.qpayUrl}/__sim/invoices/${qpayInvoiceId}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ wait: true, callback: 'get', type }) });
    expect(paid.status).toBe(200);
    const order = await eventually(async () => (await it_.keys.prisma.streamingInvoice.findUnique({ where: { invoiceId } })) ?? undefined, 15_000, 'the paid order');
    return { invoiceId: invoiceId as string, order, paymentId: ((await paid.json()) as { payment_id: string }).payment_id };
  };
  const waiting = async () => (await it_.call('GET', '/api/streaming-invoices?status=NEEDS_ATTENTION')).body.data as { id: number; invoiceId: string; attentionKind: string; attentionReason: string }[];

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_price_check');
    await listPrice(it_, 'NFX', 12, 120_000);
    const keys = await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.pricecheck@example.mn', months: 12, profiles: 4 });
    expect(keys.status).toBe(200);
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('gives no key to a 12-month Netflix order paid 1₮ though keys are free, lists it as needing attention, and gives it one when an admin approves', async () => {
    const { order } = await underpaidOrder('7100001', 1);
    expect(order).toMatchObject({
      status: 'NEEDS_ATTENTION', attentionKind: 'price_check', keyId: null, keyGenerated: false, amount: 1,
      attentionReason: 'Paid 1₮, below the price of Netflix 12 сар (120,000₮): approve to assign a key anyway, or refund',
    });
    expect(await it_.keys.prisma.streamingKey.count({ where: { assignedAt: { not: null } } })).toBe(0);
    expect((await waiting()).find((listed) => listed.id === order.id)).toMatchObject({ attentionKind: 'price_check' });

    // Assign key is the admin's approval: pressed five times at once, one key, recorded with who.
    const presses = await Promise.all(Array.from({ length: 5 }, () => it_.call('POST', `/api/streaming-invoices/${order.id}/assign-key`)));
    expect(presses.filter((press) => press.status === 200)).toHaveLength(1);
    const approved = presses.find((press) => press.status === 200)!.body.data;
    expect(approved.invoice).toMatchObject({ status: 'PAID', approvedBy: 'admin@example.com', attentionKind: null, keyGenerated: true });
    expect(approved.key.customerId).toBe('7100001');
    expect(await it_.keys.prisma.streamingKey.count({ where: { assignedAt: { not: null } } })).toBe(1);
  });

  it('refunds a card payment through QPay and closes the order, with who and when; it gets no key and cannot be refunded twice', async () => {
    const { order, invoiceId, paymentId } = await underpaidOrder('7100002', 5, 'CARD');
    expect(order.status).toBe('NEEDS_ATTENTION');
    const refunded = await it_.call('POST', `/api/streaming-invoices/${order.id}/refund`);
    expect(refunded).toMatchObject({ status: 200, body: { message: 'Refunded 5₮ through QPay', data: { status: 'REFUNDED', refundedBy: 'admin@example.com', refundedAt: expect.any(String), key: null, attentionKind: null } } });
    expect(it_.qpay!.state.findPayment(paymentId)!.refundedAt).toEqual(expect.any(String));
    const atPayments = await it_.payments!.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } });
    expect(atPayments).toMatchObject({ status: 'paid', refundedBy: 'admin@example.com', refundMethod: 'qpay', refundedAt: expect.any(Date) });

    expect((await it_.call('POST', `/api/streaming-invoices/${order.id}/refund`)).status).toBe(409);
    expect((await it_.call('POST', `/api/streaming-invoices/${order.id}/assign-key`)).status).toBe(409);
    expect((await waiting()).map((listed) => listed.id)).not.toContain(order.id);
    expect(await it_.keys.prisma.streamingKey.count({ where: { customerId: '7100002' } })).toBe(0);
  });

  it('records a bank transfer QPay cannot return (PAYMENT_SETTLED) as returned by hand, with who', async () => {
    const { order, invoiceId } = await underpaidOrder('7100003', 1, 'P2P');
    const refunded = await it_.call('POST', `/api/streaming-invoices/${order.id}/refund`);
    expect(refunded).toMatchObject({
      status: 200,
      body: { message: 'QPay cannot return a bank transfer (PAYMENT_SETTLED): recorded as returned by hand by admin@example.com', data: { status: 'REFUNDED', refundedBy: 'admin@example.com' } },
    });
    expect(await it_.payments!.prisma.qpayInvoice.findUniqueOrThrow({ where: { invoiceId } })).toMatchObject({ refundMethod: 'by_hand', refundedBy: 'admin@example.com' });
  });

  it('sells a chat order paid at the listed price at once', async () => {
    const { order } = await underpaidOrder('7100004', 120_000);
    const paid = await eventually(async () => {
      const found = await it_.keys.prisma.streamingInvoice.findUniqueOrThrow({ where: { id: order.id } });
      return found.status === 'PAID' && found;
    });
    expect(paid.keyId).not.toBeNull();
  });
});
