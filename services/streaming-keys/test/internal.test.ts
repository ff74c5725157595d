import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { asAdmin } from '@bo/platform/testing/services';
import { asNotifications, eventually, listPrice, paidEnvelope, startKeysSystem, type KeysSystem } from './system';

describe('streaming-keys: the internal routes notifications calls', () => {
  let it_: KeysSystem;
  let soldKeyId: number;

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_internal', { payments: false });
    await listPrice(it_, 'NFX', 1);
    const [sold] = await it_.keys.exposed.pool.create({ service: 'NFX', email: 'nfx.account1@example.mn', expiresAt: new Date(Date.now() + 30 * 86_400_000), profiles: 2, password: 'Shared-Pass-2026' });
    await it_.system.publish(paidEnvelope('INV-INTERNAL01', { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'bat@example.mn', streamingInvoiceId: null }));
    soldKeyId = await eventually(async () => (await it_.keys.prisma.streamingKey.findFirst({ where: { customerId: '1234567' } }))?.id);
    expect(soldKeyId).toBe(sold.id);
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('lists keys held by a chat subscriber that expire within the days asked, and nothing else', async () => {
    const inTwoDays = new Date(Date.now() + 2 * 86_400_000);
    await it_.keys.prisma.streamingKey.update({ where: { id: soldKeyId }, data: { expiresAt: inTwoDays } });
    const soon = await it_.call('GET', '/internal/streaming-keys/expiring?days=3', undefined, asNotifications);
    expect(soon.status).toBe(200);
    // The free key of the same account is not sold: no reminder for it.
    expect(soon.body.data).toEqual([
      { keyId: soldKeyId, key: expect.stringMatching(/^SK-[A-Z0-9]{10}-NFX$/), service: 'NFX', accountEmail: 'nfx.account1@example.mn', profileNumber: 1, expiresAt: inTwoDays.toISOString(), customerId: '1234567', isOptedOut: false },
    ]);
    expect((await it_.call('GET', '/internal/streaming-keys/expiring?days=1', undefined, asNotifications)).body.data).toEqual([]);

    await it_.keys.prisma.streamingKey.update({ where: { id: soldKeyId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect((await it_.call('GET', '/internal/streaming-keys/expiring?days=3', undefined, asNotifications)).body.data).toEqual([]);
    expect((await it_.call('GET', '/internal/streaming-keys/expiring?days=0', undefined, asNotifications)).status).toBe(400);
  });

  it('answers a key with its account password opened now, so a changed password reaches the next delivery', async () => {
    const first = await it_.call('GET', `/internal/streaming-keys/keys/${soldKeyId}/delivery`, undefined, asNotifications);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ keyId: soldKeyId, service: 'NFX', serviceName: 'Netflix', accountEmail: 'nfx.account1@example.mn', accountPassword: 'Shared-Pass-2026', profileNumber: 1, customerId: '1234567' });
    const stored = await it_.keys.prisma.streamingAccount.findFirstOrThrow({ where: { email: 'nfx.account1@example.mn' } });
    expect(stored.password).not.toContain('Shared-Pass-2026');
    expect(stored.password).toMatch(/^v2\.[0-9a-f]{8}\./);

    await it_.keys.exposed.pool.setPassword('nfx.account1@example.mn', 'NFX', 'Changed-Pass-2027');
    expect((await it_.call('GET', `/internal/streaming-keys/keys/${soldKeyId}/delivery`, undefined, asNotifications)).body.accountPassword).toBe('Changed-Pass-2027');
    expect((await it_.call('GET', '/internal/streaming-keys/keys/999999/delivery', undefined, asNotifications)).status).toBe(404);
  });

  it('makes a renewal session once per key and duration, with an unguessable id and the price when listed', async () => {
    // Netflix 1 month is listed at 35,000₮ (beforeAll).
    const made = await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKeyId, months: 1 }, asNotifications);
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ keyId: soldKeyId, months: 1, amount: 35_000, path: `/api/streaming/renew/${made.body.sessionId}` });
    expect(made.body.sessionId).toMatch(/^rs_[0-9a-f]{32}$/);
    const again = await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKeyId }, asNotifications);
    expect(again.body.sessionId).toBe(made.body.sessionId);
    const threeMonths = await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKeyId, months: 3 }, asNotifications);
    expect(threeMonths.body).toMatchObject({ months: 3, amount: null });
    expect(threeMonths.body.sessionId).not.toBe(made.body.sessionId);

    expect((await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: 999999 }, asNotifications)).status).toBe(404);
    expect((await it_.call('POST', '/internal/streaming-keys/renewals', { keyId: soldKeyId, months: 13 }, asNotifications)).status).toBe(400);
  });

  it("answers payments a service's listed price for a number of months, and 404 when none is listed or it is switched off", async () => {
    const asPayments = asService('payments');
    expect((await it_.call('GET', '/internal/streaming-keys/prices/NFX/1', undefined, asPayments)).body).toEqual({ service: 'NFX', months: 1, name: 'Netflix 1 сар', price: 35_000 });
    expect(await it_.call('GET', '/internal/streaming-keys/prices/NFX/6', undefined, asPayments)).toMatchObject({ status: 404, body: { error: 'Netflix 6 сар has no listed price' } });
    const row = await it_.keys.prisma.streamingPricing.create({ data: { service: 'HLU', serviceName: 'Hulu', duration: 2, price: 50_000, isActive: false } });
    expect((await it_.call('GET', '/internal/streaming-keys/prices/HLU/2', undefined, asPayments)).status).toBe(404);
    await it_.keys.prisma.streamingPricing.update({ where: { id: row.id }, data: { isActive: true } });
    expect((await it_.call('GET', '/internal/streaming-keys/prices/HLU/2', undefined, asPayments)).body.price).toBe(50_000);
    expect((await it_.call('GET', '/internal/streaming-keys/prices/XYZ/1', undefined, asPayments)).status).toBe(400);
  });

  it('refuses people, admins included, on the internal routes', async () => {
    expect((await it_.call('GET', '/internal/streaming-keys/expiring?days=3', undefined, asAdmin)).status).toBe(403);
    expect((await it_.call('GET', '/internal/streaming-keys/prices/NFX/1', undefined, asAdmin)).status).toBe(403);
    expect((await it_.call('GET', `/internal/streaming-keys/keys/${soldKeyId}/delivery`, undefined, {})).status).toBe(401);
  });
});
