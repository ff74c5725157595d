import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvelope, paymentsInvoicePaid } from '@bo/proto';
import { eventually, startNotificationsSystem, type NotificationsSystem } from './system';

const SLOW_MS = 65_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


// Issue 18 §4: a send's claim must outlive the send. Two notifications processes share one
// database and queue; ManyChat holds the first send for 65 s (past the old 60 s claim) before it
// takes it. The other replica must not claim and send the same message meanwhile.
describe('a ManyChat slower than the old claim, with two notifications replicas', () => {
  let n: NotificationsSystem;

  beforeAll(async () => {
    // The client waits longer than ManyChat is slow, so the slow send succeeds.
    n = await startNotificationsSystem('notifications_slow_manychat', { env: { MANYCHAT_TIMEOUT_MS: '70000' } });
    await n.system.replica('notifications');
    n.manychat.state.upsertSubscriber({ id: '8300001', last_interaction: new Date().toISOString() });
  }, 60_000);
  afterAll(() => n?.stop(), 60_000);

  it('delivers the message exactly once', { timeout: 150_000 }, async () => {
    const added = await fetch(`${n.manychatUrl}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'slow', delayMs: SLOW_MS, pathPrefix: '/fb/sending/sendContent', times: 1 }),
    });
    expect(added.status).toBe(200);
    const example = paymentsInvoicePaid.example;
    const event = createEnvelope(paymentsInvoicePaid, { ...example, invoiceId: 'INV-SLOW000001', payer: { ...example.payer, subscriberId: '8300001' } });
    const published = Date.now();
    await n.system.publish(event);

    // A look a second: this test spends a minute waiting and leaves the machine idle meanwhile.
    const [first] = await eventually(() => (n.messages('8300001').length > 0 ? n.messages('8300001') : null), SLOW_MS + 30_000, 'the slow send to arrive', 1_000);
    // The slow rule held the request, then let it through: the message is ManyChat's after the delay.
    expect(Date.parse(first.at) - published).toBeGreaterThanOrEqual(SLOW_MS - 1_000);
    await sleep(3_000); // a second replica's send would have landed before the first one; one more look after it
    expect(n.messages('8300001')).toHaveLength(1);
    const delivery = await n.notifications.prisma.delivery.findFirstOrThrow({ where: { invoiceId: 'INV-SLOW000001' } });
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1 });
    const effects = await n.notifications.prisma.$queryRawUnsafe<{ status: string; attempts: number }[]>(`SELECT status, attempts FROM notifications.outside_effects`);
    expect(effects).toEqual([{ status: 'done', attempts: 1 }]);
  });
});
