import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient as KeysPrisma } from '@bo/streaming-keys/generated/prisma/client';
import { alertChangedEventOf, createEnvelope, exampleAlert, type AlertView } from '@bo/proto';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
const ADMIN = '8300001';

/**
 * Alerts to the admin's ManyChat subscriber (docs/alerts.md): every service's alert that fires or
 * resolves is an `<service>.alert.changed` event, and notifications sends it to the subscriber the
 * Settings tab names, once, inside the 24-hour window.
 */
describe('alerts sent to the admin on ManyChat', () => {
  let n: NotificationsSystem;
  const alertDeliveries = () => n.notifications.prisma.delivery.findMany({ where: { kind: 'alert' }, orderBy: { id: 'asc' } });
  const setSubscriber = (value: string) => n.call('POST', '/api/manychat/settings', { key: 'alert_subscriber_id', value });
  const changed = (alert: AlertView, change: 'fired' | 'resolved') =>
    createEnvelope(alertChangedEventOf('payments'), { alertId: alert.id, change, revision: change === 'fired' ? 1 : 2, alert });
  const paymentsAlert = (id: string, resolved = false): AlertView => ({
    ...exampleAlert,
    id: `payments.${id}`,
    service: 'payments',
    rule: 'payments-need-attention',
    key: '-',
    title: 'Payments need attention',
    message: '2 payments wait in "needs attention"',
    status: resolved ? 'resolved' : 'firing',
    firedAt: '2026-11-27T08:00:00.000Z',
    resolvedAt: resolved ? '2026-11-27T09:30:00.000Z' : null,
  });

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_alerts');
    n.manychat.state.upsertSubscriber({ id: ADMIN, last_interaction: new Date(Date.now() - HOUR).toISOString() });
  }, 60_000);
  afterAll(() => n?.stop());

  it('the setting takes a subscriber id or nothing, and says why it refuses anything else', async () => {
    const refused = await setSubscriber('not-a-subscriber');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('Alert subscriber must be a ManyChat subscriber id (digits), or empty to send no alerts');
    expect((await setSubscriber(` ${ADMIN} `)).status).toBe(200);
    expect((await n.call('GET', '/api/manychat/settings')).body.alert_subscriber_id).toBe(ADMIN);
  });

  it("sends a real alert of streaming-keys as it fires and as it resolves, once each, whatever the bus delivers twice", async () => {
    const keys = await n.startStreamingKeys();
    const prisma = keys.prisma as KeysPrisma;
    await prisma.streamingPricing.create({ data: { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 } });
    expect(await keys.alerts!.evaluate()).toMatchObject({ fired: 1 });
    const fired = await eventually(async () => (await alertDeliveries()).find((row) => row.status === 'sent'), 20_000, 'the alert message');
    expect(fired).toMatchObject({ subscriberId: ADMIN, templateName: null });
    const [message] = n.messages(ADMIN);
    expect(textOf(message!)).toMatch(/^🔴 Анхааруулга \/ Alert: Few free key slots\nNetflix has 0 free key slots \(below \d+\): add keys before the next sale\nstreaming-keys · \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);

    // Keys added: it resolves, and says so once.
    await prisma.streamingKey.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({ email: 'pool@example.mn', key: `NFX-ALERT-${i}`, service: 'NFX', profileNumber: i + 1, expiresAt: new Date(Date.now() + 30 * 24 * HOUR) })),
    });
    expect(await keys.alerts!.evaluate()).toMatchObject({ resolved: 1 });
    await eventually(async () => (await alertDeliveries()).filter((row) => row.status === 'sent').length === 2, 20_000, 'the resolved message');
    const texts = n.messages(ADMIN).map(textOf);
    expect(texts).toHaveLength(2);
    expect(texts.filter((text) => /^✅ Шийдэгдсэн \/ Resolved: Few free key slots\nNetflix has 0 free key slots/.test(text))).toHaveLength(1);

    // The same event delivered again sends nothing more.
    const alert = paymentsAlert('0c7a3e10-1111-4e0e-9d1c-2f7f9e2b1a10');
    const event = changed(alert, 'fired');
    await Promise.all(Array.from({ length: 10 }, () => n.system.publish(event)));
    await eventually(async () => (await alertDeliveries()).length === 3, 20_000, 'the payments alert');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await alertDeliveries()).toHaveLength(3);
  }, 60_000);

  it('a "fired" that arrives after its "resolved" is not sent', async () => {
    const alert = paymentsAlert('0c7a3e10-2222-4e0e-9d1c-2f7f9e2b1a10', true);
    const before = (await alertDeliveries()).length;
    await n.system.publish(changed(alert, 'resolved'));
    await eventually(async () => (await alertDeliveries()).length === before + 1, 20_000, 'the resolved message');
    await n.system.publish(changed({ ...alert, status: 'firing', resolvedAt: null }, 'fired'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rows = await alertDeliveries();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)!.details).toMatchObject({ change: 'resolved', at: '2026-11-27T09:30:00.000Z' });
  });

  it('outside the 24-hour window an alert is held for want of a template, then goes once through the one an admin saves; with no subscriber set, none is recorded', async () => {
    n.manychat.state.upsertSubscriber({ id: '8300002', last_interaction: new Date(Date.now() - 72 * HOUR).toISOString() });
    expect((await setSubscriber('8300002')).status).toBe(200);
    await n.system.publish(changed(paymentsAlert('0c7a3e10-3333-4e0e-9d1c-2f7f9e2b1a10'), 'fired'));
    const held = await eventually(async () => (await alertDeliveries()).find((one) => one.subscriberId === '8300002' && one.status === 'held'), 20_000, 'the alert held');
    expect(held.lastError).toBe('Outside the 24-hour window and no utility template is set for alerts (/manychat-admin): held until the subscriber writes');
    expect(n.messages('8300002')).toEqual([]);

    await n.useTemplates({ alert: 'admin_alert' });
    const sent = await eventually(async () => {
      const row = await n.notifications.prisma.delivery.findUniqueOrThrow({ where: { id: held.id } });
      return row.status === 'sent' ? row : undefined;
    }, 15_000, 'the held alert through the saved template');
    expect(sent).toMatchObject({ templateName: 'admin_alert', lastError: null });
    expect(sent.sentText).toContain('title = Payments need attention\nmessage = 2 payments wait in "needs attention"');
    await n.useTemplates({ alert: 'admin_alert' });
    expect(n.messages('8300002')).toMatchObject([{ source: 'sendTemplate', templateName: 'admin_alert' }]);

    expect((await setSubscriber('')).status).toBe(200);
    expect((await n.call('GET', '/api/manychat/settings')).body.alert_subscriber_id).toBeNull();
    const before = (await alertDeliveries()).length;
    await n.system.publish(changed(paymentsAlert('0c7a3e10-4444-4e0e-9d1c-2f7f9e2b1a10'), 'fired'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await alertDeliveries()).toHaveLength(before);
  });
});
