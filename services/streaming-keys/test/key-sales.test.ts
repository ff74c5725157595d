import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBusinessMonths } from '@bo/proto';
import { eventually, inboxCount, listPrice, paidEnvelope, startKeysSystem, type KeysSystem } from './system';

/** Paid orders become keys through the inbox: exactly one key per order, whatever the bus does, and none lost when none is free. */
describe('streaming-keys: a paid order takes one free key', () => {
  let it_: KeysSystem;
  const assignedEvents = async () =>
    (await it_.keys.prisma.$queryRawUnsafe<{ payload: any }[]>(`SELECT payload FROM streaming_keys.outbox_events WHERE name = 'streaming.key.assigned'`)).map((row) => row.payload);
  const addKeys = async (service: 'NFX' | 'DPS', email: string, profiles: number) => {
    const made = await it_.call('POST', '/api/streaming-keys', { service, email, months: 1, profiles });
    expect(made.status).toBe(200);
    return made.body.data.keys as { id: number; key: string }[];
  };

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_sales', { payments: false });
    // The chat orders below pay the listed price.
    for (const [service, months] of [['NFX', 1], ['NFX', 3], ['DPS', 1]] as const) await listPrice(it_, service, months);
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('gives exactly one key when the same paid event is delivered 100 times at once', async () => {
    await addKeys('NFX', 'nfx.pool@example.mn', 3);
    const event = paidEnvelope('INV-SAME000001', { kind: 'streaming', serviceCode: 'NFX', months: 3, email: 'buyer@example.mn', streamingInvoiceId: null }, { payer: { subscriberId: '5550001' } });
    await Promise.all(Array.from({ length: 100 }, () => it_.system.publish(event)));
    const invoice = await eventually(() => it_.keys.prisma.streamingInvoice.findUnique({ where: { invoiceId: 'INV-SAME000001' } }));
    // Let every copy reach the consumer before counting.
    await eventually(async () => (await inboxCount(it_.keys, event.id)) === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const held = await it_.keys.prisma.streamingKey.findMany({ where: { assignedAt: { not: null } } });
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ customerId: '5550001', buyerEmail: 'buyer@example.mn', streamingInvoiceId: invoice.id, version: 2 });
    // Three calendar months in Ulaanbaatar from the sale, not from the pool key's own date.
    expect(held[0].expiresAt).toEqual(addBusinessMonths(held[0].assignedAt!, 3));
    expect(await it_.keys.prisma.streamingInvoice.count()).toBe(1);
    expect(invoice).toMatchObject({ status: 'PAID', keyGenerated: true, keyId: held[0].id, platform: 'chat', serviceCode: 'NFX', duration: 3, amount: 35_000, subscriberId: '5550001' });
    const events = await assignedEvents();
    expect(events).toEqual([expect.objectContaining({ keyId: held[0].id, revision: 2, key: held[0].key, customerId: '5550001', invoiceId: 'INV-SAME000001', streamingInvoiceId: invoice.id, months: 3 })]);
  });

  it('sells 5 free keys to 5 of 20 orders paid at once, marks the other 15 NEEDS_ATTENTION, then Assign key pressed 10 times each gives one key each', async () => {
    const pool = await addKeys('DPS', 'dps.pool1@example.mn', 5);
    const orders = Array.from({ length: 20 }, (_, i) => paidEnvelope(`INV-DPSPAID${String(i).padStart(3, '0')}`, { kind: 'streaming', serviceCode: 'DPS', months: 1, email: `buyer${i}@example.mn`, streamingInvoiceId: null }, { payer: { subscriberId: String(7000 + i) } }));
    await Promise.all(orders.map((event) => it_.system.publish(event)));
    await eventually(async () => (await it_.keys.prisma.streamingInvoice.count({ where: { serviceCode: 'DPS' } })) === 20);

    const sold = await it_.keys.prisma.streamingKey.findMany({ where: { service: 'DPS', assignedAt: { not: null } } });
    expect(sold).toHaveLength(5);
    expect(new Set(sold.map((key) => key.id))).toEqual(new Set(pool.map((key) => key.id)));
    expect(new Set(sold.map((key) => key.customerId)).size).toBe(5);
    const waiting = await it_.keys.prisma.streamingInvoice.findMany({ where: { serviceCode: 'DPS', status: 'NEEDS_ATTENTION' } });
    expect(waiting).toHaveLength(15);
    for (const invoice of waiting) expect(invoice).toMatchObject({ keyId: null, keyGenerated: false, attentionReason: 'No free Disney+ slot: add keys, then Assign key', paidAt: expect.any(Date) });
    const listed = await it_.call('GET', '/api/streaming-invoices?status=NEEDS_ATTENTION');
    expect(listed.body.data).toHaveLength(15);

    // Nothing free yet: Assign key says so and changes nothing.
    const early = await it_.call('POST', `/api/streaming-invoices/${waiting[0].id}/assign-key`);
    expect(early).toMatchObject({ status: 409, body: { error: 'No free Disney+ slot: add keys, then Assign key' } });

    await addKeys('DPS', 'dps.pool2@example.mn', 7);
    await addKeys('DPS', 'dps.pool3@example.mn', 7);
    await addKeys('DPS', 'dps.pool4@example.mn', 1);
    const presses = waiting.flatMap((invoice) => Array.from({ length: 10 }, () => it_.call('POST', `/api/streaming-invoices/${invoice.id}/assign-key`).then((reply) => ({ invoice: invoice.id, reply }))));
    const replies = await Promise.all(presses);
    for (const invoice of waiting) {
      const mine = replies.filter((press) => press.invoice === invoice.id);
      expect(mine.filter((press) => press.reply.status === 200)).toHaveLength(1);
      expect(mine.filter((press) => press.reply.status === 409)).toHaveLength(9);
    }
    expect(replies.find((press) => press.reply.status === 409)!.reply.body.error).toMatch(/^This invoice already has its key \(SK-[A-Z0-9]{10}-DPS\)$/);
    const assigned = await it_.keys.prisma.streamingInvoice.findMany({ where: { serviceCode: 'DPS' } });
    expect(assigned.every((invoice) => invoice.status === 'PAID' && invoice.keyId !== null)).toBe(true);
    expect(new Set(assigned.map((invoice) => invoice.keyId)).size).toBe(20);
    expect(await it_.keys.prisma.streamingKey.count({ where: { service: 'DPS', assignedAt: { not: null } } })).toBe(20);
    // Each assign-key's key goes to the order's own subscriber, with its event.
    const ok = replies.find((press) => press.reply.status === 200)!.reply.body.data;
    expect(ok.key.customerId).toBe(ok.invoice.subscriberId);
    expect((await assignedEvents()).filter((event) => event.service === 'DPS')).toHaveLength(20);

    expect((await it_.call('POST', '/api/streaming-invoices/999999/assign-key')).status).toBe(404);
  });

  it('finds the order it made by its id and leaves other kinds of orders alone', async () => {
    await addKeys('NFX', 'nfx.pool2@example.mn', 1);
    const order = await it_.keys.prisma.streamingInvoice.create({ data: { email: 'admin.order@example.mn', serviceCode: 'NFX', duration: 1, amount: 35_000, platform: 'admin', subscriberId: '8880001', productName: 'Netflix 1 сар', invoiceId: 'INV-ADMINORD01' } });
    await it_.system.publish(paidEnvelope('INV-ADMINORD01', { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'admin.order@example.mn', streamingInvoiceId: order.id }, { payer: { subscriberId: '8880001' } }));
    const paid = await eventually(async () => {
      const found = await it_.keys.prisma.streamingInvoice.findUniqueOrThrow({ where: { id: order.id } });
      return found.status === 'PAID' && found;
    });
    expect(paid.keyId).not.toBeNull();
    expect(await it_.keys.prisma.streamingInvoice.count({ where: { invoiceId: 'INV-ADMINORD01' } })).toBe(1);

    const custom = paidEnvelope('INV-CUSTOM0001', { kind: 'custom', productName: 'PUBG 660 UC' });
    await it_.system.publish(custom);
    await eventually(async () => (await inboxCount(it_.keys, custom.id)) === 1);
    expect(await it_.keys.prisma.streamingInvoice.count({ where: { invoiceId: 'INV-CUSTOM0001' } })).toBe(0);
  });

  it('extends the right key once for a renewal paid event delivered 20 times at once', async () => {
    const [renewed, untouched] = await addKeys('NFX', 'nfx.renew@example.mn', 2);
    // A fixed expiry, far ahead (the later of it and now on any day): 31 December 21:00 in Ulaanbaatar.
    await it_.keys.prisma.streamingKey.update({ where: { id: renewed.id }, data: { expiresAt: new Date('2090-12-31T13:00:00.000Z') } });
    const before = await it_.keys.prisma.streamingKey.findMany({ where: { id: { in: [renewed.id, untouched.id] } }, orderBy: { id: 'asc' } });
    const session = await it_.keys.prisma.renewalSession.create({ data: { id: 'rs_test_renewal', keyId: renewed.id, selectedDuration: 2, expiresAt: new Date(Date.now() + 86_400_000) } });
    const event = paidEnvelope('INV-RENEWAL001', { kind: 'renewal', keyId: renewed.id, months: 2, renewalSessionId: session.id }, { amount: 70_000 });
    await Promise.all(Array.from({ length: 20 }, () => it_.system.publish(event)));
    await eventually(async () => (await it_.keys.prisma.renewalSession.findUniqueOrThrow({ where: { id: session.id } })).status === 'paid');
    await new Promise((resolve) => setTimeout(resolve, 500));

    const [after, other] = await it_.keys.prisma.streamingKey.findMany({ where: { id: { in: [renewed.id, untouched.id] } }, orderBy: { id: 'asc' } });
    // Two calendar months on, once: 28 February 21:00 there.
    expect(after.expiresAt.toISOString()).toBe('2091-02-28T13:00:00.000Z');
    expect(after.version).toBe(before[0].version + 1);
    expect(other).toEqual(before[1]);
    const extended = await it_.keys.prisma.$queryRawUnsafe<{ payload: any }[]>(`SELECT payload FROM streaming_keys.outbox_events WHERE name = 'streaming.key.extended'`);
    expect(extended.map((row) => row.payload)).toEqual([expect.objectContaining({ keyId: renewed.id, invoiceId: 'INV-RENEWAL001', months: 2, amount: 70_000 })]);
  });

  it('keeps a committed assignment across a restart, and a redelivery after it changes nothing', async () => {
    const event = paidEnvelope('INV-RESTART001', { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'restart@example.mn', streamingInvoiceId: null }, { payer: { subscriberId: '9990001' } });
    await it_.system.publish(event);
    const before = await eventually(() => it_.keys.prisma.streamingKey.findFirst({ where: { customerId: '9990001' } }));

    await it_.restart();
    const after = await it_.keys.prisma.streamingKey.findFirstOrThrow({ where: { customerId: '9990001' } });
    expect(after).toMatchObject({ id: before.id, key: before.key, version: before.version });
    expect((await it_.call('GET', '/api/streaming-invoices')).body.data.find((invoice: any) => invoice.invoiceId === 'INV-RESTART001')).toMatchObject({ status: 'PAID', key: before.key });

    await it_.system.publish(event);
    const marker = paidEnvelope('INV-MARKER0001', { kind: 'custom', productName: 'marker' });
    await it_.system.publish(marker);
    await eventually(async () => (await inboxCount(it_.keys, marker.id)) === 1);
    expect(await it_.keys.prisma.streamingKey.count({ where: { customerId: '9990001' } })).toBe(1);
    expect(await it_.keys.prisma.streamingInvoice.count({ where: { invoiceId: 'INV-RESTART001' } })).toBe(1);
  });
});
