import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient as PaymentsPrisma } from '@bo/payments/generated/prisma/client';
import { dataKeyId, SecretBox } from '@bo/platform';
import { rotateDataKey, type RunningService } from '@bo/platform/service';
import { asService } from '@bo/platform/testing/identity';
import { TEST_DATA_ENCRYPTION_KEY } from '@bo/platform/testing/services';
import { startKeysSystem, type KeysSystem, type StreamingKeysService } from './system';

const NEXT_KEY = 'the-next-data-encryption-key-of-this-suite!';
const OLD = dataKeyId(TEST_DATA_ENCRYPTION_KEY);
const missing = (what: string) => `${what} was sealed with key ${OLD}, which is not in DATA_ENCRYPTION_KEY or DATA_ENCRYPTION_OLD_KEYS`;

// Issue 18 §3: changing DATA_ENCRYPTION_KEY used to make every read of a sealed secret a 500, the
// whole account list included. Now the old key opens what it sealed while it is in the ring, and
// without it one record says which key it needs while the rest keep working.
describe('the data key ring of streaming-keys and payments', () => {
  let it_: KeysSystem;
  let soldKeyId: number;

  /** Both services again, with these data key settings. */
  const restartWith = async (ring: { DATA_ENCRYPTION_KEY: string; DATA_ENCRYPTION_OLD_KEYS: string }) => {
    it_.payments = await it_.system.restart<RunningService<PaymentsPrisma>>('payments', ring);
    it_.keys = await it_.system.restart<StreamingKeysService>('streaming-keys', ring);
  };
  /** The data key each service tells the config-status page (as the gateway asks it), and whether any key's text is in what they said. */
  const dataKeys = async () => {
    const replies = await Promise.all(
      (['payments', 'streaming-keys'] as const).map((service) => it_.system.call(service, 'GET', `/internal/${service}/config-status`, undefined, asService('gateway'))),
    );
    const said = JSON.stringify(replies.map((reply) => reply.body));
    return {
      keys: replies.map((reply) => (reply.body.items as { name: string; dataKey?: unknown }[]).filter((item) => item.dataKey).map(({ name, dataKey }) => ({ name, dataKey }))),
      keyTextShown: [TEST_DATA_ENCRYPTION_KEY, NEXT_KEY].some((key) => said.includes(key)),
    };
  };
  const account = async (email: string) => ((await it_.call('GET', '/api/streaming-accounts?service=NFX')).body.data as { email: string }[]).find((a) => a.email === email);

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_key_ring');
    await it_.call('POST', '/api/streaming/pricing', { service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 });
    const made = await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.old@example.mn', months: 1, password: 'Old-Key-Pass-2026' });
    soldKeyId = made.body.data.keys[0].id;
    await it_.call('PUT', '/api/streaming-accounts/mailbox', { service: 'NFX', email: 'nfx.old@example.mn', mailboxPassword: 'Old-Mailbox-2026' });
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('opens values of an old key while it is in DATA_ENCRYPTION_OLD_KEYS, and seals new ones with the newest', async () => {
    expect(await dataKeys()).toEqual({
      keys: [
        [{ name: 'Data encryption key (QPay client secret, chat webhook secret)', dataKey: { id: OLD, oldKeys: 0 } }],
        [{ name: 'Data encryption key (account passwords)', dataKey: { id: OLD, oldKeys: 0 } }],
      ],
      keyTextShown: false,
    });
    await restartWith({ DATA_ENCRYPTION_KEY: NEXT_KEY, DATA_ENCRYPTION_OLD_KEYS: TEST_DATA_ENCRYPTION_KEY });
    // The config-status page sees the new key's id, and that one older key still opens values.
    const next = { id: dataKeyId(NEXT_KEY), oldKeys: 1 };
    expect(await dataKeys()).toEqual({ keys: [[expect.objectContaining({ dataKey: next })], [expect.objectContaining({ dataKey: next })]], keyTextShown: false });
    expect(await account('nfx.old@example.mn')).toMatchObject({ passwordMasked: '••••2026', passwordUnreadable: null, mailboxPasswordMasked: '••••2026' });
    expect((await it_.system.call('payments', 'GET', '/api/qpay/settings')).body).toMatchObject({ qpayClientSecretSet: true, qpayClientSecretUnreadable: null });
    await it_.call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.new@example.mn', months: 1, password: 'New-Key-Pass-2027' });
    const stored = await it_.keys.prisma.streamingAccount.findFirstOrThrow({ where: { email: 'nfx.new@example.mn' } });
    expect(stored.password!.split('.').slice(0, 2)).toEqual(['v2', dataKeyId(NEXT_KEY)]);
  });

  it('without the old key: the list shows that one record as unreadable naming the key id, never a 500 for the whole list', async () => {
    await restartWith({ DATA_ENCRYPTION_KEY: NEXT_KEY, DATA_ENCRYPTION_OLD_KEYS: '' });
    const alone = { id: dataKeyId(NEXT_KEY), oldKeys: 0 };
    expect((await dataKeys()).keys).toEqual([[expect.objectContaining({ dataKey: alone })], [expect.objectContaining({ dataKey: alone })]]);
    const list = await it_.call('GET', '/api/streaming-accounts?service=NFX');
    expect(list.status).toBe(200);
    expect(list.body.data.find((a: { email: string }) => a.email === 'nfx.old@example.mn')).toMatchObject({
      passwordSet: true, passwordMasked: '', passwordUnreadable: missing('The password of nfx.old@example.mn'),
      mailboxPasswordSet: true, mailboxPasswordMasked: '', mailboxPasswordUnreadable: missing('The mailbox password of nfx.old@example.mn'),
    });
    expect(list.body.data.find((a: { email: string }) => a.email === 'nfx.new@example.mn')).toMatchObject({ passwordMasked: '••••2027', passwordUnreadable: null });
    const settings = await it_.system.call('payments', 'GET', '/api/qpay/settings');
    expect(settings).toMatchObject({
      status: 200,
      body: { qpayClientSecretSet: true, qpayClientSecret: '', qpayClientSecretUnreadable: missing('The QPay client secret'), webhookSecret: '', webhookSecretUnreadable: missing('The chat webhook secret') },
    });
  });

  it('using such a secret is a 503 naming the key id: a key message, a QPay invoice', async () => {
    const delivery = await it_.call('GET', `/internal/streaming-keys/keys/${soldKeyId}/delivery`, undefined, asService('notifications'));
    expect({ status: delivery.status, error: delivery.body.error }).toEqual({ status: 503, error: missing('The password of nfx.old@example.mn') });
    const order = await it_.call('POST', '/api/streaming-invoices', { email: 'bat@example.mn', service: 'NFX', duration: 1 });
    expect({ status: order.status, error: order.body.error }).toEqual({ status: 503, error: `Payments could not make the invoice: ${missing('The QPay client secret')}` });
    expect(it_.qpay!.state.invoices.size).toBe(0);
  });

  it('reports what a rotation cannot open by key id, and an admin entering the secret again puts it right', async () => {
    const results = await rotateDataKey(it_.system.env.DATABASE_URL, new SecretBox(NEXT_KEY), ['payments', 'streaming-keys']);
    expect(results.map(({ table, column, resealed, current, unreadable }) => [table, column, resealed, current, unreadable])).toEqual([
      ['qpay_settings', 'qpay_client_secret', 0, 0, { [OLD]: 1 }],
      ['qpay_settings', 'webhook_secret', 0, 0, { [OLD]: 1 }],
      ['streaming_accounts', 'password', 0, 1, { [OLD]: 1 }],
      ['streaming_accounts', 'mailbox_password', 0, 0, { [OLD]: 1 }],
    ]);
    await it_.call('PUT', '/api/streaming-accounts/password', { service: 'NFX', email: 'nfx.old@example.mn', password: 'Entered-Again-2028' });
    expect(await account('nfx.old@example.mn')).toMatchObject({ passwordMasked: '••••2028', passwordUnreadable: null });
    const delivery = await it_.call('GET', `/internal/streaming-keys/keys/${soldKeyId}/delivery`, undefined, asService('notifications'));
    expect(delivery.body.accountPassword).toBe('Entered-Again-2028');
    // The chat webhook's secret is put right by Rotate, which needs nothing of the old one.
    const rotated = await it_.system.call('payments', 'POST', '/api/qpay/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.settings).toMatchObject({ webhookSecretUnreadable: null, webhookSecret: expect.stringMatching(/^••••/) });
  });
});
