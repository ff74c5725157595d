import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { signedAs } from '@bo/platform/testing/services';
import { BASE_URL_WARNING, routesOwnedBy } from '@bo/proto';
import { SIMULATOR_MANYCHAT_TOKEN } from '../src/service';
import { startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;

describe('notifications routes: settings, templates, test notification', () => {
  let n: NotificationsSystem;

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_settings');
    n.manychat.state.upsertSubscriber({ id: '8100001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    n.manychat.state.upsertSubscriber({ id: '8100002', last_interaction: new Date(Date.now() - 50 * HOUR).toISOString() });
  });
  afterAll(() => n?.stop());

  it('serves every route its contracts declare, to admins only', async () => {
    const routes = routesOwnedBy('notifications');
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const contract of routes) expect(n.notifications.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
    const customer = signedAs({ kind: 'customer', userId: null, email: 'c@example.mn', isAdmin: false, keyId: '1' });
    expect((await n.call('GET', '/api/manychat/settings', undefined, customer)).status).toBe(403);
    expect((await n.call('GET', '/api/manychat/settings', undefined, {})).status).toBe(401);
  });

  it('starts with 3 days, no base URL and its warning; the status card says configured, simulated, the page and the payment line', async () => {
    const { status, body } = await n.call('GET', '/api/manychat/settings');
    expect(status).toBe(200);
    expect(body).toEqual({
      expiry_reminder_days: 3,
      base_url: null,
      warning: BASE_URL_WARNING,
      alert_subscriber_id: null,
      status: { apiConfigured: true, simulated: true, connected: true, pageName: 'Stream Keys Shop', error: null, payment: 'Using Existing QPay Setup' },
      utility_templates: [
        { kind: 'key_delivery', name: null, variables: ['service_name', 'key', 'account_email', 'account_password', 'profile_number', 'expires_at'] },
        { kind: 'payment_confirmation', name: null, variables: ['amount', 'description', 'paid_at'] },
        { kind: 'renewal_reminder', name: null, variables: ['service_name', 'key', 'expires_at', 'days_left', 'renewal_url'] },
        { kind: 'key_extension', name: null, variables: ['service_name', 'key', 'expires_at'] },
        { kind: 'alert', name: null, variables: ['change', 'title', 'message', 'service', 'at'] },
      ],
    });
    expect(BASE_URL_WARNING).toContain('renewal notifications will not work');
    expect(JSON.stringify(body)).not.toContain(SIMULATOR_MANYCHAT_TOKEN.split(':')[1]);
  });

  it('validates and normalises each setting, and says which field is wrong', async () => {
    const set = (key: unknown, value: unknown) => n.call('POST', '/api/manychat/settings', { key, value });
    expect((await set('expiry_reminder_days', '7')).body).toEqual({ success: true, message: 'Settings updated successfully', data: { key: 'expiry_reminder_days', value: 7 } });
    expect((await set('base_url', '  https://shop.example.mn/// ')).body.data).toEqual({ key: 'base_url', value: 'https://shop.example.mn' });
    const refusals = await Promise.all([set('expiry_reminder_days', 0), set('expiry_reminder_days', 31), set('expiry_reminder_days', 2.5), set('expiry_reminder_days', 'soon'), set('base_url', 'shop.example.mn'), set('base_url', 'ftp://shop.example.mn'), set('base_url', '   '), set('alert_subscriber_id', '88 00'), set('colour', 'red')]);
    expect(refusals.map((reply) => [reply.status, reply.body.error])).toEqual([
      [400, 'Invalid body: value: Expiry reminder days must be at least 1'],
      [400, 'Invalid body: value: Expiry reminder days must be at most 30'],
      [400, 'Invalid body: value: Expiry reminder days must be a whole number from 1 to 30'],
      [400, 'Invalid body: value: Expiry reminder days must be a whole number from 1 to 30'],
      [400, 'Invalid body: value: Base URL must be a http:// or https:// URL'],
      [400, 'Invalid body: value: Base URL must be a http:// or https:// URL'],
      [400, 'Invalid body: value: Base URL must be a http:// or https:// URL'],
      [400, 'Invalid body: value: Alert subscriber must be a ManyChat subscriber id (digits), or empty to send no alerts'],
      [400, 'Invalid body: key: key must be one of expiry_reminder_days, base_url, alert_subscriber_id, template_key_delivery, template_payment_confirmation, template_renewal_reminder, template_key_extension, template_alert'],
    ]);
    expect((await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://x.mn', extra: 1 })).status).toBe(400);
    const { body } = await n.call('GET', '/api/manychat/settings');
    expect(body).toMatchObject({ expiry_reminder_days: 7, base_url: 'https://shop.example.mn', warning: null });
    // Concurrent writes of one key leave one row with one of the values.
    await Promise.all(Array.from({ length: 10 }, (_, i) => set('expiry_reminder_days', i + 1)));
    expect(await n.notifications.prisma.appSetting.count({ where: { key: 'expiry_reminder_days' } })).toBe(1);
    await set('expiry_reminder_days', 5);
  });

  it('names a utility template per kind of message (trimmed, Meta’s naming), clears it with an empty name, and refuses another form', async () => {
    const set = (key: string, value: unknown) => n.call('POST', '/api/manychat/settings', { key, value });
    expect((await set('template_renewal_reminder', '  renewal_reminder_mn ')).body).toEqual({ success: true, message: 'Settings updated successfully', data: { key: 'template_renewal_reminder', value: 'renewal_reminder_mn' } });
    expect((await set('template_key_extension', 'key_extended')).status).toBe(200);
    const refusals = await Promise.all([set('template_key_delivery', 'Key Delivery'), set('template_key_delivery', 'key-delivery'), set('template_key_delivery', 5), set('template_chat_answer', 'answer')]);
    expect(refusals.map((reply) => [reply.status, reply.body.error])).toEqual([
      [400, 'Invalid body: value: Template name must be lowercase letters, digits and underscores, as Meta names templates'],
      [400, 'Invalid body: value: Template name must be lowercase letters, digits and underscores, as Meta names templates'],
      [400, 'Invalid body: value: Template name must be lowercase letters, digits and underscores, as Meta names templates'],
      [400, expect.stringContaining('Invalid body: key: key must be one of')],
    ]);
    const named = (await n.call('GET', '/api/manychat/settings')).body.utility_templates.map((t: { kind: string; name: string | null }) => [t.kind, t.name]);
    expect(named).toEqual([['key_delivery', null], ['payment_confirmation', null], ['renewal_reminder', 'renewal_reminder_mn'], ['key_extension', 'key_extended'], ['alert', null]]);
    expect((await set('template_key_extension', '')).body.data).toEqual({ key: 'template_key_extension', value: '' });
    expect((await n.call('GET', '/api/manychat/settings')).body.utility_templates[3]).toMatchObject({ kind: 'key_extension', name: null });
  });

  it('keeps the settings across a restart', async () => {
    await n.restart();
    const { body } = await n.call('GET', '/api/manychat/settings');
    expect(body).toMatchObject({ expiry_reminder_days: 5, base_url: 'https://shop.example.mn', warning: null });
    expect(body.utility_templates[2]).toMatchObject({ kind: 'renewal_reminder', name: 'renewal_reminder_mn' });
  });

  it('previews the three templates on sample data, the reminder with the configured days', async () => {
    const { body } = await n.call('GET', '/api/manychat/templates');
    expect(body.data.map((template: { kind: string }) => template.kind)).toEqual(['key_delivery', 'renewal_reminder', 'payment_confirmation']);
    expect(body.data[1].sample).toContain('ends in 5 days');
    expect(body.data[2].sample).toContain('35,000₮');
  });

  it('sends the sample key delivery as a test: as text inside the window, outside only through the key-delivery template, recorded either way', async () => {
    const inside = await n.call('POST', '/api/manychat/test-notification', { userId: '8100001' });
    expect({ status: inside.status, body: inside.body }).toEqual({ status: 200, body: { success: true, message: 'Test notification sent', data: { userId: '8100001', service: 'Netflix', keyId: 'SK-0000000000-NFX' } } });
    expect(n.messages('8100001')).toHaveLength(1);
    expect(n.messages('8100001')[0]).toMatchObject({ source: 'sendContent', messageTag: null });
    expect(textOf(n.messages('8100001')[0])).toContain('SK-0000000000-NFX');
    // Outside the window with no template: a test is never held, so it says why it was not sent.
    const refused = await n.call('POST', '/api/manychat/test-notification', { userId: 8100002 });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 409, body: { error: 'Outside the 24-hour window and no utility template is set for key deliveries (/manychat-admin): a test is never held, so it was not sent' },
    });
    await n.useTemplates({ key_delivery: 'key_delivery' });
    const outside = await n.call('POST', '/api/manychat/test-notification', { userId: 8100002 });
    expect(outside.body.data.userId).toBe('8100002');
    expect(n.messages('8100002')).toMatchObject([{ source: 'sendTemplate', templateName: 'key_delivery', content: { variables: { key: 'SK-0000000000-NFX', account_password: 'Sample-Pass-2026' } } }]);
    const tests = (await n.call('GET', '/api/manychat/deliveries?kind=test')).body.data;
    expect(tests.map((d: { subscriberId: string; status: string; templateName: string | null }) => [d.subscriberId, d.status, d.templateName])).toEqual([
      ['8100002', 'sent', 'key_delivery'],
      ['8100002', 'failed', null],
      ['8100001', 'sent', null],
    ]);
  });

  it("answers ManyChat's reason when it refuses a test, and names a bad user id", async () => {
    const unknown = await n.call('POST', '/api/manychat/test-notification', { userId: '8199999' });
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 502, body: { error: 'ManyChat answered 400: Subscriber does not exist — Subscriber with id 8199999 does not exist' } });
    expect((await n.call('POST', '/api/manychat/test-notification', { userId: 'abc' })).body.error).toBe('Invalid body: userId: User ID must be a ManyChat subscriber id (digits)');
    expect((await n.call('POST', '/api/manychat/test-notification', {})).status).toBe(400);
    const failed = (await n.call('GET', '/api/manychat/deliveries?status=failed')).body.data;
    expect(failed[0]).toMatchObject({ kind: 'test', subscriberId: '8199999', status: 'failed', lastError: expect.stringContaining('Subscriber does not exist') });
  });

  it('says in the config status that ManyChat is configured and simulated', async () => {
    const gateway = asService('gateway');
    const { body } = await n.call('GET', '/internal/notifications/config-status', undefined, gateway);
    expect(body.items).toEqual([{ name: 'ManyChat API', category: 'Chat notifications', configured: true, simulated: true }]);
    expect(JSON.stringify(body)).not.toContain('sim-manychat-secret');
  });
});
