import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, inboxCount, listPrice, paidEnvelope, startKeysSystem, type KeysSystem } from './system';

/** The embedded run's bus (a queue in PostgreSQL) keeps the same promise: one key per paid order, none lost. */
describe('streaming-keys on the embedded bus', () => {
  let it_: KeysSystem;

  beforeAll(async () => {
    it_ = await startKeysSystem('streaming_keys_embedded', { payments: false, transport: 'embedded' });
    await listPrice(it_, 'AMZ', 1);
  });
  afterAll(async () => {
    await it_?.stop();
  });

  it('sells 3 free keys to 3 of 8 orders paid at once, each delivered 5 times, and keeps the rest waiting for a key', async () => {
    const made = await it_.call('POST', '/api/streaming-keys', { service: 'AMZ', email: 'amz.pool@example.mn', months: 1, profiles: 3 });
    expect(made.status).toBe(200);
    const orders = Array.from({ length: 8 }, (_, i) => paidEnvelope(`INV-EMBEDDED${String(i).padStart(2, '0')}`, { kind: 'streaming', serviceCode: 'AMZ', months: 1, email: null, streamingInvoiceId: null }, { payer: { subscriberId: String(6000 + i) } }));
    await Promise.all(orders.flatMap((event) => Array.from({ length: 5 }, () => it_.system.publish(event))));
    await eventually(async () => (await it_.keys.prisma.streamingInvoice.count()) === 8 && (await inboxCount(it_.keys)) === 8);

    const sold = await it_.keys.prisma.streamingKey.findMany({ where: { assignedAt: { not: null } } });
    expect(sold).toHaveLength(3);
    expect(new Set(sold.map((key) => key.customerId)).size).toBe(3);
    // No e-mail in the order: the payer's is kept as the buyer's.
    expect(sold[0].buyerEmail).toBe('bat@example.mn');
    expect(await it_.keys.prisma.streamingInvoice.count({ where: { status: 'NEEDS_ATTENTION', attentionReason: 'No free Amazon Prime Video slot: add keys, then Assign key' } })).toBe(5);
  });
});
