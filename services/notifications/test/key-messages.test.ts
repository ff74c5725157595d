import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope, paymentsInvoicePaid, streamingKeyAssigned, streamingKeyExtended, type StreamingKeyView } from '@bo/proto';
import { formatTime, templateVariables } from '../src/domain/templates';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
const ACCOUNT = 'nfx.pool@example.mn';

/**
 * Key messages with streaming-keys running: a paid order goes payments' event → streaming-keys
 * assigns a key → streaming.key.assigned → notifications reads the key's sign-in at send time.
 */
describe('key deliveries and renewal confirmations, with streaming-keys', () => {
  let n: NotificationsSystem;
  let pool: StreamingKeyView[];
  const deliveryOf = (where: { kind: string; invoiceId?: string; eventId?: string }) =>
    eventually(async () => {
      const row = await n.notifications.prisma.delivery.findFirst({ where });
      return row && row.status !== 'pending' ? row : undefined;
    }, 15_000, `the ${where.kind} delivery`);
  const keyView = async (id: number): Promise<StreamingKeyView> => (await n.callKeys('GET', '/api/streaming-keys')).body.data.find((key: StreamingKeyView) => key.id === id);
  const assigned = (key: StreamingKeyView, customerId: string) =>
    createEnvelope(streamingKeyAssigned, {
      ...streamingKeyAssigned.example,
      keyId: key.id, revision: 1, key: key.key, service: key.service, accountEmail: key.email, profileNumber: key.profileNumber, expiresAt: key.expiresAt,
      customerId, invoiceId: `INV-KEYS${String(key.id).padStart(6, '0')}`, payer: { ...streamingKeyAssigned.example.payer, subscriberId: customerId },
    });

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_keys');
    await n.startStreamingKeys();
    // The chat order below pays Netflix's listed price (a chat order below its price would wait for an admin).
    expect((await n.callKeys('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 })).status).toBe(200);
    n.manychat.state.upsertSubscriber({ id: '8300001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    n.manychat.state.upsertSubscriber({ id: '8300002', last_interaction: new Date(Date.now() - 72 * HOUR).toISOString() });
    const made = await n.callKeys('POST', '/api/streaming-keys', { service: 'NFX', email: ACCOUNT, months: 1, profiles: 5, password: 'First-Pass-1' });
    expect(made.status).toBe(200);
    pool = made.body.data.keys;
  });
  afterAll(() => n?.stop());

  it("delivers a paid order's key once, with the account's sign-in, from 50 copies of the paid event; the purchase completes", async () => {
    const order = { kind: 'streaming' as const, serviceCode: 'NFX' as const, months: 1, email: 'buyer@example.mn', streamingInvoiceId: null };
    const paid = createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-KEYORDER01', payer: { ...paymentsInvoicePaid.example.payer, subscriberId: '8300001' }, order });
    await Promise.all(Array.from({ length: 50 }, () => n.system.publish(paid)));
    const delivery = await deliveryOf({ kind: 'key_delivery', invoiceId: 'INV-KEYORDER01' });
    expect(delivery).toMatchObject({ status: 'sent', subscriberId: '8300001', templateName: null });
    await deliveryOf({ kind: 'payment_confirmation', invoiceId: 'INV-KEYORDER01' });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // duplicates, had they an effect, would have shown by now
    const messages = n.messages('8300001').map(textOf);
    expect(messages).toHaveLength(2);
    const keyMessage = messages.find((text) => text.includes('Your Netflix key is ready'))!;
    const key = await keyView(delivery.keyId!);
    for (const part of [key.key, ACCOUNT, 'First-Pass-1', `Профайл / Profile: ${key.profileNumber}`, formatTime(key.expiresAt)]) expect(keyMessage).toContain(part);
    // The record keeps the message without the password.
    expect(delivery.sentText).not.toContain('First-Pass-1');
    expect(delivery.sentText).toContain('Нууц үг / Password: ••••••');
    const purchase = await eventually(() => n.notifications.prisma.manychatPurchase.findUnique({ where: { invoiceId: 'INV-KEYORDER01' } }).then((row) => (row?.status === 'completed' ? row : undefined)));
    expect(purchase).toMatchObject({ keyId: key.id, service: 'NFX', duration: 1, amount: 35000, expiresAt: new Date(key.expiresAt), paidAt: expect.any(Date) });
  });

  it('sends one key delivery for 50 copies of one assigned event outside the window, through the key-delivery template with the password as it is at send time', async () => {
    const changed = await n.callKeys('PUT', '/api/streaming-accounts/password', { service: 'NFX', email: ACCOUNT, password: 'Second-Pass-2' });
    expect(changed.status).toBe(200);
    n.manychat.state.templates.set('key_ready', { name: 'key_ready', variables: [...templateVariables.key_delivery] });
    await n.useTemplates({ key_delivery: 'key_ready' });
    const key = (await Promise.all(pool.map((k) => keyView(k.id)))).find((k) => !k.held)!;
    const event = assigned(key, '8300002');
    await Promise.all(Array.from({ length: 50 }, () => n.system.publish(event)));
    const delivery = await deliveryOf({ kind: 'key_delivery', eventId: event.id });
    expect(delivery).toMatchObject({ status: 'sent', templateName: 'key_ready', attempts: 1 });
    // The record keeps the variables without the password.
    expect(delivery.sentText).toContain('account_password = ••••••');
    expect(delivery.sentText).not.toContain('Second-Pass-2');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const messages = n.messages('8300002');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      source: 'sendTemplate', templateName: 'key_ready', messageTag: null,
      content: { variables: { service_name: 'Netflix', key: key.key, account_email: ACCOUNT, account_password: 'Second-Pass-2', profile_number: String(key.profileNumber), expires_at: formatTime(key.expiresAt) } },
    });
    expect(await n.notifications.prisma.delivery.count({ where: { eventId: event.id } })).toBe(1);
  });

  it('still delivers a key whose assigned event arrives after a newer event of the same key (order is not guaranteed)', async () => {
    const key = pool[3];
    const newer = createEnvelope(streamingKeyExtended, {
      ...streamingKeyExtended.example,
      keyId: key.id, revision: 9, key: key.key, service: key.service, accountEmail: key.email, profileNumber: key.profileNumber, customerId: '8300001', invoiceId: null,
    });
    await n.system.publish(newer);
    await eventually(async () => {
      const [row] = await n.notifications.prisma.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM notifications.inbox_events WHERE event_id = $1::uuid`, newer.id);
      return Number(row.count) === 1;
    }, 10_000, 'the newer event to be consumed');
    const older = assigned(key, '8300001');
    await n.system.publish(older);
    expect(await deliveryOf({ kind: 'key_delivery', eventId: older.id })).toMatchObject({ status: 'sent', keyId: key.id });
  });

  it('never messages about an opted-out key, and records it opted_out', async () => {
    const key = pool[4];
    await (n.system.running('streaming-keys')!.prisma as { streamingKey: { update(args: object): Promise<unknown> } }).streamingKey.update({ where: { id: key.id }, data: { isOptedOut: true } });
    const before = n.messages('8300001').length;
    const event = assigned(key, '8300001');
    await n.system.publish(event);
    expect(await deliveryOf({ kind: 'key_delivery', eventId: event.id })).toMatchObject({ status: 'opted_out', sentText: null, lastError: null });
    expect(n.messages('8300001')).toHaveLength(before);
  });

  it('confirms a paid renewal with the new expiry; an admin extend sends nothing', async () => {
    const key = (await Promise.all(pool.map((k) => keyView(k.id)))).find((k) => k.customerId === '8300001')!;
    const order = { kind: 'renewal' as const, keyId: key.id, months: 1, renewalSessionId: null };
    const paid = createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-RENEWAL001', payer: { ...paymentsInvoicePaid.example.payer, subscriberId: '8300001' }, order });
    await n.system.publish(paid);
    const extension = await deliveryOf({ kind: 'key_extension', invoiceId: 'INV-RENEWAL001' });
    const renewed = await keyView(key.id);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.parse(key.expiresAt));
    expect(extension).toMatchObject({ status: 'sent', keyId: key.id });
    expect(extension.sentText).toContain(`Now runs until: ${formatTime(renewed.expiresAt)}`);
    expect(n.messages('8300001').map(textOf).filter((text) => text.includes('has been renewed'))).toHaveLength(1);
    const purchase = await n.notifications.prisma.manychatPurchase.findUniqueOrThrow({ where: { invoiceId: 'INV-RENEWAL001' } });
    expect(purchase).toMatchObject({ status: 'completed', keyId: key.id, expiresAt: new Date(renewed.expiresAt) });

    const before = n.messages('8300001').length;
    expect((await n.callKeys('POST', '/api/streaming-keys/extend', { keyId: key.id, months: 1 })).status).toBe(200);
    // Both extended events consumed (the renewal's and the admin's), and still only the renewal's message.
    await eventually(async () => {
      const [row] = await n.notifications.prisma.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS count FROM notifications.inbox_events WHERE name = 'streaming.key.extended'`);
      return Number(row.count) === 2;
    }, 10_000, "the admin's extend to be consumed");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(n.messages('8300001')).toHaveLength(before);
    expect(await n.notifications.prisma.delivery.count({ where: { kind: 'key_extension' } })).toBe(1);
  });
});
