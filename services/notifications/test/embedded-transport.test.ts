import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBusinessMonths, createEnvelope, paymentsInvoicePaid } from '@bo/proto';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const DAY = 86_400_000;

/** The embedded run's bus (PostgreSQL) carries the same flow: paid → key assigned → messages; reminder → key status. */
describe('notifications on the embedded transport', () => {
  let n: NotificationsSystem;

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_embedded', { transport: 'embedded' });
    await n.startStreamingKeys();
    // The chat order below pays Disney+'s listed price (a chat order below its price would wait for an admin).
    expect((await n.callKeys('POST', '/api/streaming/pricing', { service: 'DPS', serviceName: 'Disney+', duration: 1, price: 35_000 })).status).toBe(200);
    n.manychat.state.upsertSubscriber({ id: '8500001', last_interaction: new Date().toISOString() });
  });
  afterAll(() => n?.stop());

  it('delivers the payment confirmation and the key of a paid order once, and the reminder status reaches streaming-keys', async () => {
    const made = await n.callKeys('POST', '/api/streaming-keys', { service: 'DPS', email: 'dps.embedded@example.mn', months: 1, profiles: 1, password: 'Embedded-Pass' });
    expect(made.status).toBe(200);
    const order = { kind: 'streaming' as const, serviceCode: 'DPS' as const, months: 1, email: null, streamingInvoiceId: null };
    const paid = createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-EMBEDDED01', payer: { ...paymentsInvoicePaid.example.payer, subscriberId: '8500001' }, order });
    await Promise.all(Array.from({ length: 10 }, () => n.system.publish(paid)));
    const texts = await eventually(() => {
      const delivered = n.messages('8500001').map(textOf);
      return delivered.length >= 2 ? delivered : undefined;
    }, 15_000, 'two messages');
    expect(texts.find((text) => text.includes('Your Disney+ key is ready'))).toContain('Embedded-Pass');
    expect(texts.filter((text) => text.includes('Payment received'))).toHaveLength(1);
    expect(texts.filter((text) => text.includes('key is ready'))).toHaveLength(1);

    // The key runs one calendar month in Ulaanbaatar from its sale: 28 to 31 days, so no reminder window (at most 30 days) is sure to hold it today.
    const [sold] = (await n.callKeys('GET', '/api/streaming-keys')).body.data as { id: number; assignedAt: string; expiresAt: string }[];
    expect(sold.expiresAt).toBe(addBusinessMonths(new Date(sold.assignedAt), 1).toISOString());
    // What four weeks of waiting would do, on any day: the key, and the purchase that recorded its expiry, are set to expire in two days, inside the default 3-day window.
    const soon = new Date(Date.now() + 2 * DAY);
    await (n.system.running('streaming-keys')!.prisma as any).streamingKey.update({ where: { id: sold.id }, data: { expiresAt: soon } });
    await n.notifications.prisma.manychatPurchase.update({ where: { invoiceId: 'INV-EMBEDDED01' }, data: { expiresAt: soon } });
    await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'http://localhost:5000' });
    expect((await n.call('POST', '/api/manychat/trigger-expiry-check', {})).body).toMatchObject({ data: { checked: 1, sent: 1 }, days: 3, joined: false });
    await eventually(async () => {
      const keys = (await n.callKeys('GET', '/api/streaming-keys')).body.data as { notificationStatus: string | null }[];
      return keys[0]?.notificationStatus === 'sent';
    }, 15_000, 'the key to show its reminder sent');
    expect(n.messages('8500001')).toHaveLength(3);
    expect(await n.notifications.prisma.manychatPurchase.findUniqueOrThrow({ where: { invoiceId: 'INV-EMBEDDED01' } })).toMatchObject({ status: 'completed', renewalNotificationSent: true });
  });
});
