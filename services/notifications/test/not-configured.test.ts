import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { createEnvelope, paymentsInvoicePaid } from '@bo/proto';
import { eventually, startNotificationsSystem, type NotificationsSystem } from './system';

describe('notifications without a ManyChat token', () => {
  let n: NotificationsSystem;

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_unconfigured', { env: { MANYCHAT_API_TOKEN: '' } });
  });
  afterAll(() => n?.stop());

  it('records every message failed with "ManyChat API is not configured" and sends nothing', async () => {
    const event = createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-NOTCONF001' });
    await n.system.publish(event);
    const row = await eventually(async () => {
      const found = await n.notifications.prisma.delivery.findFirst({ where: { invoiceId: 'INV-NOTCONF001' } });
      return found && found.status !== 'pending' ? found : undefined;
    });
    expect(row).toMatchObject({ status: 'failed', lastError: 'ManyChat API is not configured', attempts: 1 });
    expect(n.manychat.state.messages).toEqual([]);
  });

  it('answers the test notification with 503 and the reason, and shows the card and config status unconfigured', async () => {
    const refused = await n.call('POST', '/api/manychat/test-notification', { userId: '9000001' });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 503, body: { error: 'ManyChat API is not configured' } });
    expect((await n.call('GET', '/api/manychat/settings')).body.status).toEqual({ apiConfigured: false, simulated: true, connected: null, pageName: null, error: null, payment: 'Using Existing QPay Setup' });
    const gateway = asService('gateway');
    expect((await n.call('GET', '/internal/notifications/config-status', undefined, gateway)).body.items).toEqual([{ name: 'ManyChat API', category: 'Chat notifications', configured: false, simulated: true }]);
    expect(n.manychat.state.messages).toEqual([]);
  });
});
