import { createEnvelope, paymentsInvoicePaid, type StreamingKeyView } from '@bo/proto';
import { eventually } from '@bo/platform/testing/eventually';
import { startNotificationsSystem } from '../services/notifications/test/system';
import { modeLine, scaled } from './mode';

/**
 * `make bench`, notifications' sends at ManyChat's pace (25 sends a second for a page), with
 * notifications on this machine's PostgreSQL, Redis and RabbitMQ and the ManyChat simulator (which
 * answers 429 past the pace) in process:
 * - CONFIRMATIONS payment confirmations paid at the same moment: from publishing their events until
 *   the last one is sent; target < 10 s for 40 (the bound payment-messages.test.ts once held);
 * - the expiry check of KEYS keys expiring (streaming-keys beside it), pressed as an admin does:
 *   until its reply; target < 20 s for 100, under the gateway's 30 s (expiry-scale.test.ts's bound).
 * The tests check that the sends are paced (none refused) and each goes once; how long they take
 * is this bench's. Targets are reported, not asserted.
 */

const CONFIRMATIONS = scaled(40, 10);
const KEYS = scaled(100, 20);
const TARGET_CONFIRMATIONS_MS = 10_000;
const TARGET_EXPIRY_CHECK_MS = 20_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (value: number, target: number) => `(target < ${seconds(target)}: ${value < target ? 'met' : 'NOT met'})`;

async function main(): Promise<void> {
  const n = await startNotificationsSystem('bench_notifications');
  try {
    await n.startStreamingKeys();
    const lines = [modeLine(), 'notifications bench (notifications and streaming-keys in one process, PostgreSQL, Redis, RabbitMQ; ManyChat simulator in process)'];

    // Payment confirmations, all paid at once, to subscribers inside the 24-hour window.
    const payers = Array.from({ length: CONFIRMATIONS }, (_, i) => `84${String(i).padStart(5, '0')}`);
    for (const id of payers) n.manychat.state.upsertSubscriber({ id, last_interaction: new Date(Date.now() - HOUR).toISOString() });
    const example = paymentsInvoicePaid.example;
    const events = payers.map((subscriberId, i) =>
      createEnvelope(paymentsInvoicePaid, { ...example, invoiceId: `INV-BENCH${String(i).padStart(5, '0')}`, payer: { ...example.payer, subscriberId } }),
    );
    n.manychat.journal.clear();
    const paidAt = performance.now();
    await Promise.all(events.map((event) => n.system.publish(event)));
    await eventually(async () => {
      const sent = await n.notifications.prisma.delivery.count({ where: { kind: 'payment_confirmation', status: 'sent', invoiceId: { startsWith: 'INV-BENCH' } } });
      return sent === CONFIRMATIONS;
    }, 120_000, 'every confirmation sent', 20);
    const confirmationsMs = performance.now() - paidAt;
    const refused = n.manychat.journal.list().filter((entry) => entry.status === 429).length;
    lines.push(`  ${CONFIRMATIONS} payment confirmations paid at once → all sent: ${seconds(confirmationsMs)} ${verdict(confirmationsMs, TARGET_CONFIRMATIONS_MS)}; ${refused} refused by ManyChat's pace`);

    // The expiry check: KEYS keys expiring in two days, their subscribers quiet for five (each reminder is a template).
    const subscribers = Array.from({ length: KEYS }, (_, i) => `86${String(i).padStart(5, '0')}`);
    for (const id of subscribers) n.manychat.state.upsertSubscriber({ id, last_interaction: new Date(Date.now() - 5 * DAY).toISOString() });
    await Promise.all(subscribers.map((id) => n.wrote(id, 5 * DAY)));
    await eventually(async () => (await n.notifications.prisma.chatSubscriber.count({ where: { subscriberId: { startsWith: '86' } } })) === KEYS, 60_000, 'the record of every subscriber');
    await n.useTemplates({ renewal_reminder: 'renewal_reminder' });
    const made = await Promise.all(
      Array.from({ length: Math.ceil(KEYS / 7) }, (_, account) =>
        n.callKeys('POST', '/api/streaming-keys', { service: 'DPS', email: `dps.bench${account}@example.mn`, expiresAt: new Date(Date.now() + 2 * DAY).toISOString(), profiles: 7 }),
      ),
    );
    const keys = made.flatMap((reply) => reply.body.data.keys as StreamingKeyView[]).slice(0, KEYS);
    await Promise.all(keys.map((key, i) => n.callKeys('PATCH', `/api/streaming-keys/${key.id}/customer-id`, { customerId: subscribers[i] })));
    await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://shop.example.mn' });
    n.manychat.journal.clear();
    const pressed = performance.now();
    const reply = await n.call('POST', '/api/manychat/trigger-expiry-check', {});
    const checkMs = performance.now() - pressed;
    const counts = reply.body.data as { checked: number; sent: number } | undefined;
    const checkRefused = n.manychat.journal.list().filter((entry) => entry.status === 429).length;
    lines.push(`  expiry check of ${KEYS} expiring keys → its reply: ${seconds(checkMs)} ${verdict(checkMs, TARGET_EXPIRY_CHECK_MS)}; ${counts?.sent ?? '?'} of ${counts?.checked ?? '?'} reminded, ${checkRefused} refused by ManyChat's pace`);
    console.log(lines.join('\n'));
  } finally {
    await n.stop();
  }
}

await main();
