import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView, StreamingKeyView } from '@bo/proto';
import { asService } from '@bo/platform/testing/identity';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TRIGGER = '/api/manychat/trigger-expiry-check';

/**
 * "Run Expiry Check" pressed right after a settings change, while a check is running: the press
 * runs with the settings as they are when pressed. It joins a check already going only when that
 * check has the same settings (and says so); one started before the change is waited for, then its
 * own runs. ManyChat holds the first check's reminder (its calls wait up to 20 s here), so that
 * check is surely running when the settings change and the presses come.
 */
describe('the expiry check pressed while another one runs', () => {
  let n: NotificationsSystem;
  const keyFor = async (email: string, expiresInMs: number, holder: string): Promise<StreamingKeyView> => {
    const made = await n.callKeys('POST', '/api/streaming-keys', { service: 'NFX', email, expiresAt: new Date(Date.now() + expiresInMs).toISOString(), profiles: 1 });
    expect(made.status).toBe(200);
    return (await n.callKeys('PATCH', `/api/streaming-keys/${made.body.data.keys[0].id}/customer-id`, { customerId: holder })).body.data;
  };
  const remindersOf = (key: StreamingKeyView) => n.manychat.state.messages.map(textOf).filter((text) => text.includes(key.key));

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_expiry_press', { env: { MANYCHAT_TIMEOUT_MS: '20000' } });
    await n.startStreamingKeys();
    n.manychat.state.upsertSubscriber({ id: '8800001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    expect((await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://shop.example.mn' })).status).toBe(200);
    expect((await n.call('POST', '/api/manychat/settings', { key: 'expiry_reminder_days', value: 3 })).status).toBe(200);
  });
  afterAll(() => n?.stop());

  it('does not report a check started before a settings change: two presses after it wait for it, then share one check with the new window', async () => {
    const soon = await keyFor('nfx.press.soon@example.mn', 2 * DAY, '8800001');
    const later = await keyFor('nfx.press.later@example.mn', 7 * DAY, '8800001');

    // A check with the 3-day window, held at ManyChat while it sends the reminder of the key expiring in two days.
    const hold = n.manychat.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'hold' });
    const first = n.call('POST', TRIGGER, {});
    await eventually(() => n.manychat.faults.held().length === 1, 15_000, 'the first check to be sending, held');

    // The window widened to 10 days, then two admins press at once while the first check is still running.
    expect((await n.call('POST', '/api/manychat/settings', { key: 'expiry_reminder_days', value: 10 })).status).toBe(200);
    let answered = 0;
    const presses = [1, 2].map(() => n.call('POST', TRIGGER, {}).then((reply) => (answered++, reply)));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // They wait for it (its counts are not theirs), and start nothing of their own meanwhile.
    expect(answered).toBe(0);
    expect(n.manychat.faults.held()).toHaveLength(1);
    const runs: RunView[] = (await n.notifications.app.inject({ method: 'GET', url: '/internal/notifications/runs?kind=expiry-check', headers: asService('gateway') })).json().data;
    expect(runs.map((run) => run.status)).toEqual(['in_progress']);

    n.manychat.faults.release(hold.id);
    const firstReply = await first;
    expect(firstReply.status).toBe(200);
    expect(firstReply.body).toMatchObject({ joined: false, days: 3, data: { checked: 1, sent: 1, failed: 0, skipped: 0 } });

    const replies = await Promise.all(presses);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    const [one, other] = replies.map((reply) => reply.body);
    // One check with the new window for both: one press started it, the other joined it and says so.
    expect(one.runId).toBe(other.runId);
    expect(one.runId).not.toBe(firstReply.body.runId);
    expect([one.joined, other.joined].sort()).toEqual([false, true]);
    for (const reply of [one, other]) expect(reply).toMatchObject({ message: 'Expiry check triggered successfully', days: 10, data: { checked: 2, sent: 1, failed: 0, skipped: 1 } });
    expect(remindersOf(soon)).toHaveLength(1);
    expect(remindersOf(later)).toHaveLength(1);

    // Pressed again with nothing running and nothing changed: its own check, the same window, nothing left to send.
    const again = (await n.call('POST', TRIGGER, {})).body;
    expect(again).toMatchObject({ joined: false, days: 10, data: { checked: 2, sent: 0, skipped: 2 } });
    expect(again.runId).not.toBe(one.runId);
  });
});
