import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamingKeyView } from '@bo/proto';
import { eventually, startNotificationsSystem, type NotificationsSystem } from './system';

const DAY = 24 * 3_600_000;
const KEYS = 100;

/** A busy day: 100 keys expiring within the window, reminded by one manual check. */
describe('the expiry check at 100 expiring keys', () => {
  let n: NotificationsSystem;
  let keyIds: number[] = [];

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_expiry_scale');
    await n.startStreamingKeys();
    const subscribers = Array.from({ length: KEYS }, (_, i) => `86${String(i).padStart(5, '0')}`);
    // Quiet for 5 days, as ManyChat and our record of their messages both say: each reminder goes through the template.
    for (const id of subscribers) n.manychat.state.upsertSubscriber({ id, last_interaction: new Date(Date.now() - 5 * DAY).toISOString() });
    await Promise.all(subscribers.map((id) => n.wrote(id, 5 * DAY)));
    await eventually(async () => (await n.notifications.prisma.chatSubscriber.count()) === KEYS, 20_000, 'the record of every subscriber');
    await n.useTemplates({ renewal_reminder: 'renewal_reminder' });
    // Disney+ accounts have 7 profiles: 15 accounts give the 100 keys.
    const made = await Promise.all(
      Array.from({ length: Math.ceil(KEYS / 7) }, (_, account) =>
        n.callKeys('POST', '/api/streaming-keys', { service: 'DPS', email: `dps.scale${account}@example.mn`, expiresAt: new Date(Date.now() + 2 * DAY).toISOString(), profiles: 7 }),
      ),
    );
    const keys = made.flatMap((reply) => reply.body.data.keys as StreamingKeyView[]).slice(0, KEYS);
    await Promise.all(keys.map((key, i) => n.callKeys('PATCH', `/api/streaming-keys/${key.id}/customer-id`, { customerId: subscribers[i] })));
    keyIds = keys.map((key) => key.id);
    await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://shop.example.mn' });
  }, 60_000);
  afterAll(() => n?.stop());

  it('sends one reminder per key in one check, within ManyChat’s rate, and every key shows it sent', async () => {
    const reply = await n.call('POST', '/api/manychat/trigger-expiry-check', {});
    expect(reply.body.data).toEqual({ checked: KEYS, sent: KEYS, failed: 0, optedOut: 0, held: 0, skipped: 0 });
    expect(n.manychat.state.messages).toHaveLength(KEYS);
    expect(n.manychat.state.messages.every((message) => message.templateName === 'renewal_reminder')).toBe(true);
    expect(new Set(n.manychat.state.messages.map((message) => message.subscriberId)).size).toBe(KEYS);
    // Within ManyChat's rate: none refused. (100 sends at 20 a second take 5 s, well under the
    // gateway's 30 s: bench/notifications.ts prints how long the check's reply takes.)
    expect(n.manychat.journal.list().filter((entry) => entry.status === 429)).toHaveLength(0);
    await eventually(async () => {
      const keys = (await n.callKeys('GET', '/api/streaming-keys')).body.data as StreamingKeyView[];
      return keys.filter((key) => keyIds.includes(key.id) && key.notificationStatus === 'sent').length === KEYS;
    }, 20_000, 'every key to show its reminder sent');
  }, 60_000);
});
