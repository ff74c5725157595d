import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL_WARNING, type RunView, type StreamingKeyView } from '@bo/proto';
import { asService } from '@bo/platform/testing/identity';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The expiry check with streaming-keys running: its expiring keys, renewal sessions and key status. */
describe('the expiry check, with streaming-keys', () => {
  let n: NotificationsSystem;
  let keys: StreamingKeyView[];
  const trigger = async () => {
    const reply = await n.call('POST', '/api/manychat/trigger-expiry-check', {});
    expect(reply.status).toBe(200);
    expect(reply.body.message).toBe('Expiry check triggered successfully');
    return reply.body.data;
  };
  const keysPrisma = () => n.system.running('streaming-keys')!.prisma as any;
  const keyView = async (id: number): Promise<StreamingKeyView> => (await n.callKeys('GET', '/api/streaming-keys')).body.data.find((key: StreamingKeyView) => key.id === id);
  /** Waits until streaming-keys shows the key's reminder status (it arrives as notifications.reminder.recorded). */
  const keyStatus = (id: number, status: string, attempts: number) =>
    eventually(async () => {
      const key = await keyView(id);
      return key.notificationStatus === status && key.notificationAttempts === attempts ? key : undefined;
    }, 15_000, `key ${id} to show ${status} after ${attempts} attempts`);
  const reminders = (subscriberId: string) => n.messages(subscriberId).filter((message) => message.templateName === 'renewal_reminder' || textOf(message).includes('хоногийн дараа дуусна'));
  const makeKeys = async (email: string, expiresInMs: number, holders: string[]): Promise<StreamingKeyView[]> => {
    const made = await n.callKeys('POST', '/api/streaming-keys', { service: 'NFX', email, expiresAt: new Date(Date.now() + expiresInMs).toISOString(), profiles: holders.length });
    expect(made.status).toBe(200);
    return Promise.all(
      made.body.data.keys.map(async (key: StreamingKeyView, i: number) => (await n.callKeys('PATCH', `/api/streaming-keys/${key.id}/customer-id`, { customerId: holders[i] })).body.data),
    );
  };

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_expiry');
    await n.startStreamingKeys();
    n.manychat.state.upsertSubscriber({ id: '8400001', last_interaction: new Date(Date.now() - HOUR).toISOString() });
    n.manychat.state.upsertSubscriber({ id: '8400002', last_interaction: new Date(Date.now() - 10 * DAY).toISOString() });
    keys = await makeKeys('nfx.expiring@example.mn', 2 * DAY, ['8400001', '8400002', '8400001', '8400002']);
    await keysPrisma().streamingKey.update({ where: { id: keys[3].id }, data: { isOptedOut: true } });
    await makeKeys('nfx.later@example.mn', 20 * DAY, ['8400001']); // outside the 3-day window: never checked
  });
  afterAll(() => n?.stop());

  it('without a base URL records each reminder failed with the warning, sends nothing, and streaming-keys shows it', async () => {
    expect(await trigger()).toEqual({ checked: 4, sent: 0, failed: 3, optedOut: 1, held: 0, skipped: 0 });
    expect(n.manychat.state.messages).toEqual([]);
    const rows = await n.notifications.prisma.reminder.findMany({ orderBy: { keyId: 'asc' } });
    expect(rows.map((row) => [row.keyId, row.status, row.lastError])).toEqual([
      [keys[0].id, 'failed', BASE_URL_WARNING],
      [keys[1].id, 'failed', BASE_URL_WARNING],
      [keys[2].id, 'failed', BASE_URL_WARNING],
      [keys[3].id, 'opted_out', null],
    ]);
    await keyStatus(keys[0].id, 'failed', 0); // nothing was tried: no send used up
    await keyStatus(keys[3].id, 'opted_out', 0);
    const failed = (await n.call('GET', '/api/manychat/deliveries?kind=renewal_reminder&status=failed')).body.data;
    expect(failed).toHaveLength(3);
    expect(failed[0].lastError).toBe(BASE_URL_WARNING);
  });

  it('with a base URL sends one reminder per key linking to the renewal session streaming-keys made, as text inside the window and through the template outside; a second check sends none', async () => {
    await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://shop.example.mn/' });
    await n.useTemplates({ renewal_reminder: 'renewal_reminder' });
    expect(await trigger()).toEqual({ checked: 4, sent: 3, failed: 0, optedOut: 0, held: 0, skipped: 1 });
    expect(reminders('8400001')).toHaveLength(2);
    expect(reminders('8400002')).toHaveLength(1);
    expect(n.manychat.state.messages.every((message) => message.messageTag === null)).toBe(true);
    expect(reminders('8400001').map((message) => message.source)).toEqual(['sendContent', 'sendContent']);
    expect(reminders('8400002').map((message) => message.source)).toEqual(['sendTemplate']);
    for (const key of keys.slice(0, 3)) {
      const session = await keysPrisma().renewalSession.findFirst({ where: { keyId: key.id }, orderBy: { createdAt: 'desc' } });
      const text = n.manychat.state.messages.map(textOf).find((message) => message.includes(key.key))!;
      // The text's last line, or the template's last variable (renewal_url).
      expect(text.split('\n').at(-1)).toBe(`https://shop.example.mn/api/streaming/renew/${session.id}`);
      expect(text).toMatch(key.customerId === '8400002' ? /^2$/m : /ends in 2 days/);
    }
    expect(n.manychat.state.messages.map(textOf).some((text) => text.includes(keys[3].key))).toBe(false); // opted out
    await keyStatus(keys[0].id, 'sent', 1);
    await keyStatus(keys[3].id, 'opted_out', 0);

    expect(await trigger()).toEqual({ checked: 4, sent: 0, failed: 0, optedOut: 0, held: 0, skipped: 4 });
    expect(reminders('8400001')).toHaveLength(2);
    const report = (await n.callKeys('GET', '/api/streaming/expiry-report')).body;
    expect(report).toMatchObject({ sent: 3, optedOut: 1, failed: 0 });
  });

  it('sends one reminder per key and expiry date when five checks run at once, and reminds again for a new expiry date', async () => {
    const fresh = await makeKeys('nfx.fresh@example.mn', 2 * DAY, ['8400001', '8400002']);
    const extended = await n.callKeys('POST', '/api/streaming-keys/extend', { keyId: keys[0].id, expiresAt: new Date(Date.now() + 2.5 * DAY).toISOString() });
    expect(extended.status).toBe(200);
    const before = n.manychat.state.messages.length;
    // Five checks at once (as replicas, or a run taken over, could): the reminder rows let one send each.
    const counts = await Promise.all(Array.from({ length: 5 }, () => n.notifications.exposed.expiryCheck.run()));
    const sent = counts.reduce((sum, count) => sum + count.sent, 0);
    expect(sent).toBe(3);
    expect(n.manychat.state.messages.length - before).toBe(3);
    for (const key of [...fresh, keys[0]]) expect(n.manychat.state.messages.map(textOf).filter((text) => text.includes(key.key))).toHaveLength(key.id === keys[0].id ? 2 : 1);
    expect(await n.notifications.prisma.reminder.count({ where: { keyId: keys[0].id } })).toBe(2);
    await keyStatus(keys[0].id, 'sent', 2);
    // Five presses at once join one expiry-check run (or start one after it ended): nothing is sent twice.
    const pressedAt = new Date().toISOString();
    const replies = await Promise.all(Array.from({ length: 5 }, () => n.call('POST', '/api/manychat/trigger-expiry-check', {})));
    expect(replies.map((reply) => [reply.status, reply.body.data?.sent ?? reply.body.error])).toEqual(Array.from({ length: 5 }, () => [200, 0]));
    // Each run's presses: the one that started it says so, the others that they joined it.
    for (const runId of new Set(replies.map((reply) => reply.body.runId))) {
      expect(replies.filter((reply) => reply.body.runId === runId).map((reply) => reply.body.joined).sort()).toEqual([false, ...Array.from({ length: replies.filter((reply) => reply.body.runId === runId).length - 1 }, () => true)]);
    }
    expect(n.manychat.state.messages.length - before).toBe(3);
    const listed: { createdAt: string }[] = (await n.notifications.app.inject({ method: 'GET', url: '/internal/notifications/runs?kind=expiry-check', headers: asService('gateway') })).json().data;
    const runs = listed.filter((run) => run.createdAt >= pressedAt);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(2);
    expect(runs[0]).toMatchObject({ kind: 'expiry-check', status: 'completed', startedBy: expect.stringMatching(/^admin:/), progress: { counters: { skipped: expect.any(Number) } } });
  });

  it('tries a reminder ManyChat failed again at the next check, and gives up after five sends', async () => {
    const [key] = await makeKeys('nfx.flaky@example.mn', 2 * DAY, ['8400001']);
    // A server error: the send may have reached the person, so the check does not repeat it; the next check does.
    n.manychat.faults.add({ pathPrefix: '/fb/sending/sendContent', kind: 'status', status: 500, times: 1 });
    expect(await trigger()).toMatchObject({ sent: 0, failed: 1 });
    await keyStatus(key.id, 'failed', 1);
    expect(await trigger()).toMatchObject({ sent: 1, failed: 0 });
    await keyStatus(key.id, 'sent', 2);
    expect(n.manychat.state.messages.map(textOf).filter((text) => text.includes(key.key))).toHaveLength(1);

    const [doomed] = await makeKeys('nfx.doomed@example.mn', 2 * DAY, ['8499999']); // ManyChat knows no such subscriber
    for (let check = 1; check <= 5; check++) expect((await trigger()).failed).toBe(1);
    expect(await trigger()).toEqual({ checked: 8, sent: 0, failed: 0, optedOut: 0, held: 0, skipped: 8 });
    const reminder = await n.notifications.prisma.reminder.findFirstOrThrow({ where: { keyId: doomed.id } });
    expect(reminder).toMatchObject({ status: 'failed', attempts: 5, lastError: expect.stringContaining('Subscriber does not exist') });
    await keyStatus(doomed.id, 'failed', 5);
  });

  it('takes over a reminder whose check died mid-send, but not one another check is sending now', async () => {
    const [orphan, busy] = await makeKeys('nfx.orphan@example.mn', 2 * DAY, ['8400001', '8400001']);
    const { prisma } = n.notifications;
    const expiresAt = (key: StreamingKeyView) => new Date(key.expiresAt);
    await prisma.reminder.create({ data: { keyId: orphan.id, expiresAt: expiresAt(orphan), subscriberId: '8400001', status: 'sending', claimedAt: new Date(Date.now() - 20 * 60_000) } });
    await prisma.reminder.create({ data: { keyId: busy.id, expiresAt: expiresAt(busy), subscriberId: '8400001', status: 'sending' } });
    const counts = await trigger();
    expect(counts).toMatchObject({ sent: 1 });
    expect(await prisma.reminder.findFirstOrThrow({ where: { keyId: orphan.id } })).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await prisma.reminder.findFirstOrThrow({ where: { keyId: busy.id } })).toMatchObject({ status: 'sending' });
    expect(n.manychat.state.messages.map(textOf).filter((text) => text.includes(busy.key))).toHaveLength(0);
  });

  it('answers only admins, and refuses a body', async () => {
    expect((await n.call('POST', '/api/manychat/trigger-expiry-check', {}, {})).status).toBe(401);
    expect((await n.call('POST', '/api/manychat/trigger-expiry-check', { days: 3 })).status).toBe(400);
  });

  // Last: it restarts notifications on a schedule that ticks every second (EXPIRY_CHECK_CRON, hourly by default).
  it('checks by itself on its schedule: each tick an expiry-check run of the schedule, a new expiring key reminded once', async () => {
    const [key] = await makeKeys('nfx.scheduled@example.mn', 2 * DAY, ['8400001']);
    await n.system.restart('notifications', { EXPIRY_CHECK_CRON: '* * * * * *' });
    const sentFor = () => n.manychat.state.messages.map(textOf).filter((text) => text.includes(key.key));
    await eventually(() => (sentFor().length > 0 ? true : undefined), 15_000, 'the reminder sent by a scheduled check');
    const scheduledRuns = async () =>
      ((await n.system.running('notifications')!.app.inject({ method: 'GET', url: '/internal/notifications/runs?kind=expiry-check&limit=200', headers: asService('gateway') })).json().data as RunView[]).filter(
        (run) => run.startedBy === 'schedule:expiry-check',
      );
    // Later ticks find it reminded already.
    await eventually(async () => ((await scheduledRuns()).filter((run) => run.status === 'completed').length >= 3 ? true : undefined), 15_000, 'three scheduled checks');
    expect(sentFor()).toHaveLength(1);
    await keyStatus(key.id, 'sent', 1);
  });
});
