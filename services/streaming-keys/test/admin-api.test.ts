import { asService } from '@bo/platform/testing/identity';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataKeyId } from '@bo/platform';
import { signedAs, TEST_DATA_ENCRYPTION_KEY } from '@bo/platform/testing/services';
import { createEnvelope, keyPattern, notificationsReminderRecorded, routesOwnedBy } from '@bo/proto';
import { eventually, inboxCount, startKeysSystem, type KeysSystem } from './system';

const DAY = 86_400_000;
const asGateway = asService('gateway');
const asCustomer = signedAs({ kind: 'customer', userId: 'c1', email: 'bat@example.mn', isAdmin: false, keyId: null });

describe('streaming-keys: the admin routes of /streaming-keys', () => {
  let it_: KeysSystem;
  const outboxEvents = async (name: string) =>
    it_.keys.prisma.$queryRawUnsafe<{ payload: any }[]>(`SELECT payload FROM streaming_keys.outbox_events WHERE name = $1 ORDER BY occurred_at`, name);

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_admin', { payments: false });
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('serves every route its contracts declare, to admins only', async () => {
    for (const contract of routesOwnedBy('streaming-keys')) expect(it_.keys.app.hasRoute({ method: contract.method, url: contract.path }), `${contract.method} ${contract.path}`).toBe(true);
    expect((await it_.call('GET', '/api/streaming-keys/stats', undefined, asCustomer)).status).toBe(403);
    expect((await it_.call('GET', '/api/streaming/pricing', undefined, {})).status).toBe(401);
  });

  it('keeps the price list: the form texts of document 3 §5, one price per service and duration, edit and delete', async () => {
    const bad = async (body: unknown) => (await it_.call('POST', '/api/streaming/pricing', body)).body;
    expect((await bad({ service: 'NFX', serviceName: '', duration: 1, price: 1 })).details).toContainEqual({ field: 'serviceName', message: 'Service name is required' });
    expect((await bad({ service: 'NFX', serviceName: 'Netflix', duration: 0, price: 1 })).details).toContainEqual({ field: 'duration', message: 'Duration must be at least 1 month' });
    expect((await bad({ service: 'NFX', serviceName: 'Netflix', duration: 13, price: 1 })).details).toContainEqual({ field: 'duration', message: 'Duration must not exceed 12 months' });
    expect((await bad({ service: 'NFX', serviceName: 'Netflix', duration: 1, price: -1 })).details).toContainEqual({ field: 'price', message: 'Price must be at least 0' });
    expect((await bad({ service: '', serviceName: 'Netflix', duration: 1, price: 1 })).details).toContainEqual({ field: 'service', message: 'Service is required' });
    expect(await it_.keys.prisma.streamingPricing.count()).toBe(0);

    const made = await it_.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 });
    expect(made).toMatchObject({ status: 200, body: { success: true, data: { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000, isActive: true } } });
    // Two admins adding the same row at once: one row, the other told it exists.
    const twice = await Promise.all([1, 2].map(() => it_.call('POST', '/api/streaming/pricing', { service: 'DPS', serviceName: 'Disney+', duration: 3, price: 60_000 })));
    expect(twice.map((reply) => reply.status).sort()).toEqual([200, 409]);
    expect((await it_.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 1 })).status).toBe(409);

    const edited = await it_.call('PUT', `/api/streaming/pricing/${made.body.data.id}`, { price: 32_000 });
    expect(edited.body.data.price).toBe(32_000);
    // A number is a number: its text, true or null is refused, naming the field (the page parses what was typed).
    for (const price of ['32000', true, null]) {
      expect(await it_.call('PUT', `/api/streaming/pricing/${made.body.data.id}`, { price }), String(price)).toMatchObject({ status: 400, body: { error: 'Invalid body: price: Price must be a whole number' } });
    }
    expect((await it_.call('PUT', `/api/streaming/pricing/${made.body.data.id}`, { price: -5 })).status).toBe(400);
    expect((await it_.call('PUT', '/api/streaming/pricing/999999', { price: 1 })).status).toBe(404);
    const listed = await it_.call('GET', '/api/streaming/pricing');
    expect(listed.body.data.map((row: any) => `${row.service}-${row.duration}:${row.price}`)).toEqual(['DPS-3:60000', 'NFX-1:32000']);
    const disney = listed.body.data[0].id;
    expect((await it_.call('DELETE', `/api/streaming/pricing/${disney}`)).body).toEqual({ success: true });
    expect((await it_.call('DELETE', `/api/streaming/pricing/${disney}`)).status).toBe(404);
  });

  it('creates one key per free profile of an account, says how many are left when too few, and stores the password sealed', async () => {
    const missing = await it_.call('POST', '/api/streaming-keys', { service: '', email: '' });
    expect(missing).toMatchObject({ status: 400, body: { error: 'Please fill in all required fields' } });
    expect(missing.body.details).toEqual([
      { field: 'service', message: 'Service is required' },
      { field: 'email', message: 'Invalid email address' },
      { field: 'expiresAt', message: 'Expiry date is required' },
    ]);
    expect((await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'not-an-email', months: 1 })).body.details).toContainEqual({ field: 'email', message: 'Invalid email address' });
    expect((await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'a@example.mn', months: 1, expiresAt: '2030-01-01' })).body.error).toBe('Please select duration or custom date');
    expect((await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'a@example.mn', expiresAt: '2020-01-01' })).body.error).toBe('Expiry date cannot be in the past');
    expect((await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'a@example.mn', months: 1, profiles: 6 })).body.error).toBe('Profiles must be at most 5 for Netflix');
    expect((await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'a@example.mn', months: 13 })).status).toBe(400);
    expect(await it_.keys.prisma.streamingKey.count()).toBe(0);

    const made = await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'NFX.Account1@Example.mn', months: 1, profiles: 3, password: 'Shared-Pass-2026' });
    expect(made.status).toBe(200);
    const keys = made.body.data.keys;
    expect(keys.map((key: any) => key.profileNumber)).toEqual([1, 2, 3]);
    for (const key of keys) {
      expect(key.key).toMatch(keyPattern);
      expect(key).toMatchObject({ email: 'nfx.account1@example.mn', service: 'NFX', serviceName: 'Netflix', isActive: 1, status: 'Active', held: false, customerId: null });
    }
    expect(new Set(keys.map((key: any) => key.key)).size).toBe(3);

    expect((await it_.call('GET', '/api/streaming-keys/available-profiles/nfx.account1@example.mn/NFX')).body.data).toEqual([4, 5]);
    const tooMany = await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.account1@example.mn', expiresAt: new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10), profiles: 3 });
    expect(tooMany).toMatchObject({ status: 409, body: { error: 'Only 2 free profile(s) left on nfx.account1@example.mn for Netflix' } });

    // Two admins filling the last two profiles at once: each profile gets one key, the loser is told none are left.
    const race = await Promise.all([1, 2].map(() => it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.account1@example.mn', months: 2, profiles: 2 })));
    expect(race.map((reply) => reply.status).sort()).toEqual([200, 409]);
    expect(race.find((reply) => reply.status === 409)!.body.error).toBe('No free profiles left on nfx.account1@example.mn for Netflix');
    expect((await it_.call('GET', '/api/streaming-keys/available-profiles/nfx.account1@example.mn/NFX')).body.data).toEqual([]);
    expect((await it_.call('GET', '/api/streaming-keys/available-profiles/nobody@example.mn/DPS')).body.data).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await it_.call('GET', '/api/streaming-keys/available-profiles/not-an-email/DPS')).status).toBe(400);

    const account = await it_.keys.prisma.streamingAccount.findFirstOrThrow({ where: { email: 'nfx.account1@example.mn', service: 'NFX' } });
    expect(account.password).not.toContain('Shared-Pass-2026');
    const accounts = await it_.call('GET', '/api/streaming-accounts?service=NFX');
    expect(accounts.body.data).toEqual([{ email: 'nfx.account1@example.mn', service: 'NFX', passwordSet: true, passwordMasked: '••••2026', passwordUnreadable: null, passwordUpdatedAt: expect.any(String), mailboxPasswordSet: false, mailboxPasswordMasked: '', mailboxPasswordUnreadable: null }]);
    expect(JSON.stringify(accounts.body)).not.toContain('Shared-Pass');

    await it_.call('POST', '/api/streaming-keys', { service: 'DPS', email: 'dps.account@example.mn', months: 1, profiles: 2 });
    expect((await it_.call('GET', '/api/streaming-keys/emails-with-slots?service=DPS')).body.data).toEqual([{ email: 'dps.account@example.mn', availableSlots: 5 }]);
    expect((await it_.call('GET', '/api/streaming-keys/emails-with-slots?service=NFX')).body.data).toEqual([{ email: 'nfx.account1@example.mn', availableSlots: 0 }]);
    expect((await it_.call('GET', '/api/streaming-keys/emails-with-slots')).status).toBe(400);
  });

  it('sets an account password sealed, and a new one replaces it', async () => {
    const set = await it_.call('PUT', '/api/streaming-accounts/password', { service: 'DPS', email: 'dps.account@example.mn', password: 'Disney-Pass-1' });
    expect(set.body.data).toMatchObject({ passwordSet: true, passwordMasked: '••••ss-1' });
    const sealed = (await it_.keys.prisma.streamingAccount.findFirstOrThrow({ where: { email: 'dps.account@example.mn' } })).password!;
    expect(sealed).not.toContain('Disney-Pass-1');
    await it_.call('PUT', '/api/streaming-accounts/password', { service: 'DPS', email: 'dps.account@example.mn', password: 'Disney-Pass-2' });
    expect(await it_.keys.exposed.pool.passwordOf('dps.account@example.mn', 'DPS')).toBe('Disney-Pass-2');
    expect((await it_.call('PUT', '/api/streaming-accounts/password', { service: 'DPS', email: 'unknown@example.mn', password: 'x' })).status).toBe(404);
    expect((await it_.call('PUT', '/api/streaming-accounts/password', { service: 'DPS', email: 'dps.account@example.mn', password: '' })).status).toBe(400);
  });

  it('counts keys and slots, lists, searches and shows the most recent', async () => {
    const all = (await it_.call('GET', '/api/streaming-keys')).body.data;
    expect(all).toHaveLength(7);
    const first = all.find((key: any) => key.service === 'NFX' && key.profileNumber === 1);
    await it_.keys.prisma.streamingKey.update({ where: { id: first.id }, data: { expiresAt: new Date(Date.now() - DAY) } });
    const second = all.find((key: any) => key.service === 'NFX' && key.profileNumber === 2);
    await it_.keys.prisma.streamingKey.update({ where: { id: second.id }, data: { expiresAt: new Date(Date.now() + DAY) } });
    const given = await it_.call('PATCH', `/api/streaming-keys/${second.id}/customer-id`, { customerId: '7654321' });
    expect(given.body.data).toMatchObject({ customerId: '7654321', held: true });

    expect((await it_.call('GET', '/api/streaming-keys/stats')).body).toEqual({ totalKeys: 7, activeKeys: 6, expired: 1, expiringSoon: 1 });
    expect((await it_.call('GET', '/api/streaming-keys/slot-stats')).body.data.services).toEqual({
      NFX: { serviceName: 'Netflix', occupiedSlots: 1, totalSlots: 5 },
      DPS: { serviceName: 'Disney+', occupiedSlots: 0, totalSlots: 2 },
      AMZ: { serviceName: 'Amazon Prime Video', occupiedSlots: 0, totalSlots: 0 },
      HLU: { serviceName: 'Hulu', occupiedSlots: 0, totalSlots: 0 },
      MAX: { serviceName: 'HBO Max', occupiedSlots: 0, totalSlots: 0 },
    });
    expect((await it_.call('GET', `/api/streaming-keys?search=${first.key.slice(3, 9).toLowerCase()}`)).body.data.map((key: any) => key.id)).toEqual([first.id]);
    expect((await it_.call('GET', '/api/streaming-keys?search=DPS.ACCOUNT')).body.data).toHaveLength(2);
    expect((await it_.call('GET', '/api/streaming-keys?search=1')).body.data.find((key: any) => key.id === first.id).status).toBe('Expired');
    expect((await it_.call('GET', '/api/streaming-keys/expiring-soon')).body.data.map((key: any) => key.id)).toEqual([second.id]);
    expect((await it_.call('GET', '/api/streaming-keys/expiring-soon?days=90')).body.data).toHaveLength(6);

    const recent = (await it_.call('GET', '/api/streaming-keys/recent?limit=2')).body.data;
    expect(recent.map((key: any) => key.service)).toEqual(['DPS', 'DPS']);
    expect((await it_.call('GET', '/api/streaming-keys/recent')).body.data).toHaveLength(7);
    expect((await it_.call('GET', '/api/streaming-keys/recent?limit=0')).status).toBe(400);

    // A blank customer id clears it: the key is back in the free pool.
    expect((await it_.call('PATCH', `/api/streaming-keys/${second.id}/customer-id`, { customerId: '  ' })).body.data).toMatchObject({ customerId: null, held: false });
    expect((await it_.call('PATCH', '/api/streaming-keys/999999/customer-id', { customerId: '1' })).status).toBe(404);
  });

  it('extends a key by calendar months in Ulaanbaatar from its expiry, or to a later date, and publishes streaming.key.extended with no invoice', async () => {
    const listed = (await it_.call('GET', '/api/streaming-keys?service=DPS')).body.data[0];
    // A fixed expiry, far ahead (so it is the later of it and now on any day): 31 January 07:00 in Ulaanbaatar, still the 30th in UTC.
    await it_.keys.prisma.streamingKey.update({ where: { id: listed.id }, data: { expiresAt: new Date('2090-01-30T23:00:00.000Z') } });
    const key = (await it_.call('GET', '/api/streaming-keys?service=DPS')).body.data.find((row: any) => row.id === listed.id);
    const neither = await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id });
    expect(neither).toMatchObject({ status: 400, body: { error: 'Please select duration or custom date' } });
    expect((await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id, months: 1, expiresAt: '2031-01-01' })).body.error).toBe('Please select duration or custom date');
    expect((await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id, expiresAt: '2020-01-01' })).body.error).toMatch(/^The new expiry must be later than the current one/);
    expect((await it_.call('POST', '/api/streaming-keys/extend', { keyId: 999999, months: 1 })).status).toBe(404);

    const extended = await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id, months: 1 });
    expect(extended.status).toBe(200);
    expect(extended.body.previousExpiresAt).toBe('2090-01-30T23:00:00.000Z');
    // 28 February 07:00 in Ulaanbaatar (UTC months said 1 March 07:00 there).
    expect(extended.body.data.expiresAt).toBe('2090-02-27T23:00:00.000Z');
    expect((await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id, expiresAt: '2090-02-20' })).body.error).toBe('The new expiry must be later than the current one (2090-02-28)');
    const toDate = await it_.call('POST', '/api/streaming-keys/extend', { keyId: key.id, expiresAt: '2091-06-30' });
    expect(toDate.body.data.expiresAt).toBe('2091-06-30T00:00:00.000Z');

    const events = await outboxEvents('streaming.key.extended');
    expect(events.map((event) => event.payload)).toEqual([
      expect.objectContaining({ keyId: key.id, revision: 2, previousExpiresAt: '2090-01-30T23:00:00.000Z', expiresAt: '2090-02-27T23:00:00.000Z', invoiceId: null, months: 1, amount: null }),
      expect.objectContaining({ keyId: key.id, revision: 3, expiresAt: '2091-06-30T00:00:00.000Z', invoiceId: null, months: null }),
    ]);
  });

  it('makes a real QR code PNG of the key and keeps it', async () => {
    const key = (await it_.call('GET', '/api/streaming-keys?service=DPS')).body.data[1];
    const qr = await it_.call('POST', `/api/streaming-keys/generate-qr/${key.id}`);
    expect(qr.status).toBe(200);
    expect(qr.body.data.qrCodeData).toMatch(/^data:image\/png;base64,/);
    const image = PNG.sync.read(Buffer.from(qr.body.data.qrCodeData.split(',')[1], 'base64'));
    const text = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
    expect(text).toContain(`Key: ${key.key}`);
    expect(text).toContain('Service: Disney+');
    expect(text).toContain('Email: dps.account@example.mn');
    expect(await it_.keys.prisma.streamingQrCode.count({ where: { keyId: key.id } })).toBe(1);
    expect((await it_.call('POST', '/api/streaming-keys/generate-qr/999999')).status).toBe(404);
  });

  it('folds reminder outcomes into the key, ignoring an outcome about an expiry the key no longer has, and reports them', async () => {
    const [held, other] = (await it_.call('GET', '/api/streaming-keys?service=NFX')).body.data.filter((key: any) => key.status === 'Active');
    const soon = new Date(Date.now() + 2 * DAY);
    await it_.keys.prisma.streamingKey.updateMany({ where: { id: { in: [held.id, other.id] } }, data: { expiresAt: soon } });
    await it_.call('PATCH', `/api/streaming-keys/${held.id}/customer-id`, { customerId: '1111' });
    await it_.call('PATCH', `/api/streaming-keys/${other.id}/customer-id`, { customerId: '2222' });
    const reminder = (keyId: number, revision: number, status: 'sent' | 'failed' | 'held', expiresAt = soon, error: string | null = null) =>
      createEnvelope(notificationsReminderRecorded, { keyId, revision, expiresAt: expiresAt.toISOString(), status, attempts: revision, at: new Date().toISOString(), error });
    await it_.system.publish(reminder(held.id, 2, 'sent'));
    // Older than the one applied: skipped by the inbox.
    await it_.system.publish(reminder(held.id, 1, 'failed'));
    await it_.system.publish(reminder(other.id, 1, 'failed', new Date(Date.now() + 30 * DAY)));
    await eventually(async () => (await inboxCount(it_.keys)) === 3);

    const report = (await it_.call('GET', '/api/streaming/expiry-report')).body;
    expect(report).toMatchObject({ total: 2, sent: 1, failed: 0, optedOut: 0, held: 0, pending: 1 });
    expect(report.keys).toContainEqual({
      id: held.id, serviceName: 'Netflix', email: 'nfx.account1@example.mn', key: held.key, expiresAt: soon.toISOString(), notificationStatus: 'sent', notificationError: null, notificationAttempts: 2,
    });
    expect(report.keys).toContainEqual(expect.objectContaining({ id: other.id, notificationStatus: null, notificationAttempts: 0 }));

    // A reminder held outside the chat's 24-hour window shows with notifications' reason.
    const why = 'Outside the 24-hour window and no utility template is set for renewal reminders (/manychat-admin): held until the subscriber writes';
    await it_.system.publish(reminder(other.id, 2, 'held', soon, why));
    await eventually(async () => (await it_.call('GET', '/api/streaming/expiry-report')).body.held === 1);
    expect((await it_.call('GET', '/api/streaming-keys?service=NFX')).body.data.find((key: any) => key.id === other.id)).toMatchObject({ notificationStatus: 'held', notificationError: why });

    // A new expiry starts a new reminder cycle.
    for (const keyId of [held.id, other.id]) await it_.call('POST', '/api/streaming-keys/extend', { keyId, months: 1 });
    const after = (await it_.call('GET', '/api/streaming/expiry-report?days=60')).body;
    expect(after.keys).toContainEqual(expect.objectContaining({ id: held.id, notificationStatus: null, notificationAttempts: 0 }));
    expect(after.keys).toContainEqual(expect.objectContaining({ id: other.id, notificationStatus: null, notificationError: null }));
  });

  it('deletes a key, freeing its profile', async () => {
    const key = (await it_.call('GET', '/api/streaming-keys?service=DPS')).body.data[0];
    expect((await it_.call('DELETE', `/api/streaming-keys/${key.id}`)).body).toEqual({ success: true });
    expect((await it_.call('DELETE', `/api/streaming-keys/${key.id}`)).status).toBe(404);
    expect((await it_.call('GET', '/api/streaming-keys/available-profiles/dps.account@example.mn/DPS')).body.data).toContain(key.profileNumber);
    expect((await it_.call('DELETE', '/api/streaming-keys/abc')).status).toBe(400);
  });

  it('reports its configuration status to the gateway', async () => {
    const status = await it_.call('GET', '/internal/streaming-keys/config-status', undefined, asGateway);
    expect(status.status).toBe(200);
    // This suite runs without payments: the page says so rather than claiming it is set up.
    expect(status.body.items).toContainEqual({ name: 'Payments service (streaming invoices and renewal links)', category: 'Streaming keys', configured: false, simulated: false, error: expect.stringContaining('payments is not reachable') });
    // The data key by its id only (the one its sealed values name), and no older key in the ring.
    expect(status.body.items).toContainEqual({ name: 'Data encryption key (account passwords)', category: 'Streaming keys', configured: true, simulated: false, dataKey: { id: dataKeyId(TEST_DATA_ENCRYPTION_KEY), oldKeys: 0 } });
    expect(JSON.stringify(status.body)).not.toContain(TEST_DATA_ENCRYPTION_KEY);
  });
});
