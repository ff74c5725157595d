import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alerts } from '@bo/platform/alerts';
import { asService } from '@bo/platform/testing/identity';
import { startKeysSystem, type KeysSystem } from './system';

const DAY = 86_400_000;

/** streaming-keys' alert rules (docs/alerts.md) on its own tables: each fires once, stays firing, and resolves once. */
describe('streaming-keys alerts', () => {
  let k: KeysSystem;
  let alerts: Alerts;
  let profile = 0;
  const firing = async (rule: string) => (await alerts.list({ status: 'firing', limit: 50 })).filter((alert) => alert.rule === rule);
  const addKey = (service: string, held: { customerId?: string; expiresInDays?: number } = {}) =>
    k.keys.prisma.streamingKey.create({
      data: {
        email: `pool${service.toLowerCase()}@example.com`, key: `${service}-ALERT-${++profile}`, service, profileNumber: profile,
        expiresAt: new Date(Date.now() + (held.expiresInDays ?? 30) * DAY), customerId: held.customerId ?? null, assignedAt: held.customerId ? new Date() : null,
      },
    });

  beforeAll(async () => {
    k = await startKeysSystem('streaming_alerts', { payments: false, keysEnv: { LOW_FREE_SLOTS_THRESHOLD: '2' } });
    alerts = k.keys.alerts!;
  }, 60_000);
  afterAll(() => k?.stop());

  it('fires "Few free key slots" for each service sold or stocked below the threshold, and resolves a service once keys are added', async () => {
    await k.keys.prisma.streamingPricing.createMany({ data: [{ service: 'NFX', serviceName: 'Netflix', duration: 1, price: 35_000 }, { service: 'DPS', serviceName: 'Disney+', duration: 1, price: 25_000 }] });
    await addKey('NFX');
    await addKey('NFX', { customerId: '5550001' });
    // Expired keys are no free slots.
    await addKey('NFX', { expiresInDays: -1 });
    expect(await alerts.evaluate()).toMatchObject({ fired: 2, failedRules: [] });
    // Both fired at the same evaluation: the list's order between them is not defined, so sort by key.
    expect((await firing('low-free-slots')).sort((a, b) => a.key.localeCompare(b.key))).toMatchObject([
      { key: 'DPS', title: 'Few free key slots', message: 'Disney+ has 0 free key slots (below 2): add keys before the next sale', details: { free: 0, threshold: 2 } },
      { key: 'NFX', message: 'Netflix has 1 free key slot (below 2): add keys before the next sale', details: { free: 1 } },
    ]);
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, resolved: 0 });
    await addKey('NFX');
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, resolved: 1 });
    expect((await firing('low-free-slots')).map((alert) => alert.key)).toEqual(['DPS']);
  });

  it('fires "Keys expiring without a renewal" for held keys expiring within 3 days, and resolves once each has its renewal invoice', async () => {
    const soon = await addKey('NFX', { customerId: '5550002', expiresInDays: 2 });
    await addKey('NFX', { customerId: '5550003', expiresInDays: 5 });
    expect((await alerts.evaluate()).fired).toBe(1);
    const [alert] = await firing('keys-expiring-unrenewed');
    expect(alert.message).toMatch(/^1 held key expires within 3 days with no renewal invoice \(the first on \d{4}-\d{2}-\d{2}\)$/);
    expect(alert.details).toMatchObject({ count: 1, keys: [{ id: soon.id, key: soon.key, service: 'NFX' }] });
    // A renewal link opened but no invoice made yet is no renewal.
    await k.keys.prisma.renewalSession.create({ data: { id: 'alert-renewal-1', userId: '5550002', keyId: soon.id, selectedDuration: 1, expiresAt: new Date(Date.now() + DAY) } });
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, resolved: 0 });
    await k.keys.prisma.renewalSession.update({ where: { id: 'alert-renewal-1' }, data: { invoiceId: 'INV-ALERT-1' } });
    expect(await alerts.evaluate()).toMatchObject({ fired: 0, resolved: 1 });
    expect(await firing('keys-expiring-unrenewed')).toEqual([]);
  });

  it('evaluates them on the alert-check schedule (ALERT_CHECK_CRON; the test systems set a yearly one, so only the tests evaluate)', async () => {
    const schedules = await k.system.call('streaming-keys', 'GET', '/internal/streaming-keys/schedules', undefined, asService('gateway'));
    expect(schedules.body.data).toContainEqual(expect.objectContaining({ name: 'alert-check', expression: '0 0 1 1 *', runKind: 'alert-check' }));
  });

  it('fires "Paid orders need attention" while any paid order waits for an admin, and resolves when none does', async () => {
    const order = await k.keys.prisma.streamingInvoice.create({ data: { serviceCode: 'NFX', duration: 1, amount: 35_000, status: 'NEEDS_ATTENTION', attentionKind: 'no_free_key', attentionReason: 'No free key', paidAt: new Date() } });
    expect((await alerts.evaluate()).fired).toBe(1);
    expect(await firing('orders-need-attention')).toMatchObject([{ severity: 'critical', message: '1 paid order waits for an admin (needs attention): assign a key or refund', details: { count: 1, byKind: { no_free_key: 1 } } }]);
    expect((await alerts.evaluate()).fired).toBe(0);
    await k.keys.prisma.streamingInvoice.update({ where: { id: order.id }, data: { status: 'REFUNDED', refundedAt: new Date(), refundedBy: 'admin:owner' } });
    expect((await alerts.evaluate()).resolved).toBe(1);
    expect(await firing('orders-need-attention')).toEqual([]);
  });
});
