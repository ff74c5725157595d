import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiChatAnswerReady, createEnvelope, paymentsInvoicePaid, type StreamingKeyView } from '@bo/proto';
import { formatTime, templateVariables } from '../src/domain/templates';
import { CHAT_ANSWER_OUTSIDE_WINDOW } from '../src/operations/messenger';
import { eventually, startNotificationsSystem, textOf, type NotificationsSystem } from './system';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HELD_REMINDER = 'Outside the 24-hour window and no utility template is set for renewal reminders (/manychat-admin): held until the subscriber writes';
const HELD_CONFIRMATION = 'Outside the 24-hour window and no utility template is set for payment confirmations (/manychat-admin): held until the subscriber writes';

/**
 * Issue 21: Meta deprecated the message tags (2026-04-27), so outside Messenger's 24-hour window a
 * message goes only through its kind's approved utility template, or is held until the subscriber
 * writes. Two notifications replicas on RabbitMQ, streaming-keys, and the ManyChat simulator.
 */
describe('messages outside the 24-hour window', () => {
  let n: NotificationsSystem;
  const keyView = async (id: number): Promise<StreamingKeyView> => (await n.callKeys('GET', '/api/streaming-keys')).body.data.find((key: StreamingKeyView) => key.id === id);
  /** ManyChat calls so far to paths starting with `path` (each test's sends are its own: they run one after another). */
  const calls = (path: string) => n.manychat.journal.list().filter((entry) => entry.url.startsWith(path)).length;
  /** A key of its own expiring in two days, held by `subscriberId`. */
  const expiringKey = async (subscriberId: string): Promise<StreamingKeyView> => {
    const made = await n.callKeys('POST', '/api/streaming-keys', { service: 'NFX', email: `nfx.${subscriberId}@example.mn`, expiresAt: new Date(Date.now() + 2 * DAY).toISOString(), profiles: 1 });
    expect(made.status).toBe(200);
    return (await n.callKeys('PATCH', `/api/streaming-keys/${made.body.data.keys[0].id}/customer-id`, { customerId: subscriberId })).body.data;
  };
  /** A subscriber last seen `ago` ms back, by ManyChat and by our record of their messages. */
  const quiet = async (subscriberId: string, ago: number) => {
    n.manychat.state.upsertSubscriber({ id: subscriberId, last_interaction: new Date(Date.now() - ago).toISOString() });
    await n.wrote(subscriberId, ago);
    await eventually(() => n.notifications.prisma.chatSubscriber.findUnique({ where: { subscriberId } }), 10_000, `the record of ${subscriberId}`);
  };
  const trigger = async () => (await n.call('POST', '/api/manychat/trigger-expiry-check', {})).body.data;
  const reminderOf = (keyId: number) => n.notifications.prisma.delivery.findFirstOrThrow({ where: { kind: 'renewal_reminder', keyId } });

  beforeAll(async () => {
    n = await startNotificationsSystem('notifications_outside_window');
    await n.system.replica('notifications');
    await n.startStreamingKeys();
    await n.call('POST', '/api/manychat/settings', { key: 'base_url', value: 'https://shop.example.mn' });
  }, 60_000);
  afterAll(() => n?.stop(), 60_000);

  it('B6: sends a renewal reminder to a subscriber quiet for 3 days through the renewal-reminder template, filled from the reminder', async () => {
    await quiet('8700001', 3 * DAY);
    const key = await expiringKey('8700001');
    // The page approved it with exactly the variables the reminder fills.
    n.manychat.state.templates.set('renewal_notice', { name: 'renewal_notice', variables: [...templateVariables.renewal_reminder] });
    await n.useTemplates({ renewal_reminder: 'renewal_notice' });
    const before = { text: calls('/fb/sending/sendContent'), template: calls('/fb/sending/sendTemplate') };
    expect(await trigger()).toEqual({ checked: 1, sent: 1, failed: 0, optedOut: 0, held: 0, skipped: 0 });

    const [message] = n.messages('8700001');
    expect(n.messages('8700001')).toHaveLength(1);
    const session = await (n.system.running('streaming-keys')!.prisma as any).renewalSession.findFirst({ where: { keyId: key.id } });
    expect(message).toMatchObject({
      source: 'sendTemplate', templateName: 'renewal_notice', messageTag: null,
      content: { variables: { service_name: 'Netflix', key: key.key, expires_at: formatTime(key.expiresAt), days_left: '2', renewal_url: `https://shop.example.mn/api/streaming/renew/${session.id}` } },
    });
    // Our record says the window is closed: the text is not even tried.
    expect({ text: calls('/fb/sending/sendContent'), template: calls('/fb/sending/sendTemplate') }).toEqual({ text: before.text, template: before.template + 1 });
    expect(await reminderOf(key.id)).toMatchObject({ status: 'sent', templateName: 'renewal_notice', sentText: expect.stringContaining(`renewal_url = https://shop.example.mn/api/streaming/renew/${session.id}`) });
    await eventually(async () => (await keyView(key.id)).notificationStatus === 'sent', 15_000, 'the key to show its reminder sent');
  });

  it('B6: with no template set holds the reminder with its reason, on the page and on the key, then sends it exactly once when the subscriber writes (events at once, two replicas)', async () => {
    await n.useTemplates({ renewal_reminder: '' });
    await quiet('8700002', 3 * DAY);
    const key = await expiringKey('8700002');
    // A payment confirmation outside the window with no template of its own is held too; no record of this payer makes ManyChat's 3011 the judge.
    const paid = createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-HELD000001', payer: { ...paymentsInvoicePaid.example.payer, subscriberId: '8700002' } });
    await n.system.publish(paid);
    expect(await trigger()).toEqual({ checked: 2, sent: 0, failed: 0, optedOut: 0, held: 1, skipped: 1 });
    expect(await reminderOf(key.id)).toMatchObject({ status: 'held', lastError: HELD_REMINDER, sentText: null });
    const confirmation = await eventually(async () => {
      const row = await n.notifications.prisma.delivery.findFirst({ where: { invoiceId: 'INV-HELD000001' } });
      return row?.status === 'held' ? row : undefined;
    }, 15_000, 'the confirmation to be held');
    expect(confirmation.lastError).toBe(HELD_CONFIRMATION);
    expect(n.messages('8700002')).toEqual([]);

    const held = (await n.call('GET', '/api/manychat/deliveries?status=held')).body.data;
    expect(held.map((row: { kind: string; subscriberId: string; lastError: string }) => [row.kind, row.subscriberId, row.lastError])).toEqual([
      ['renewal_reminder', '8700002', HELD_REMINDER],
      ['payment_confirmation', '8700002', HELD_CONFIRMATION],
    ]);
    const shown = await eventually(async () => {
      const view = await keyView(key.id);
      return view.notificationStatus === 'held' ? view : undefined;
    }, 15_000, 'the key to show its reminder held');
    expect(shown).toMatchObject({ notificationError: HELD_REMINDER, notificationAttempts: 0 });
    const report = (await n.callKeys('GET', '/api/streaming/expiry-report')).body;
    expect(report).toMatchObject({ held: 1 });
    expect(report.keys).toContainEqual(expect.objectContaining({ id: key.id, notificationStatus: 'held', notificationError: HELD_REMINDER }));
    // A later check leaves it to the subscriber's next message.
    expect(await trigger()).toMatchObject({ sent: 0, held: 0, skipped: 2 });

    // The subscriber writes twice in quick succession, and the first event comes twice: both replicas at once.
    n.manychat.state.upsertSubscriber({ id: '8700002', last_interaction: new Date().toISOString() });
    const [first, second] = [n.wroteEvent('8700002'), n.wroteEvent('8700002')];
    await Promise.all([first, first, second].map((event) => n.system.publish(event)));
    const reminder = await eventually(async () => {
      const row = await reminderOf(key.id);
      return row.status === 'sent' ? row : undefined;
    }, 15_000, 'the held reminder to be sent');
    expect(reminder).toMatchObject({ templateName: null, lastError: null });
    await eventually(async () => (await n.notifications.prisma.delivery.findFirst({ where: { invoiceId: 'INV-HELD000001' } }))?.status === 'sent', 15_000, 'the held confirmation to be sent');
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a second send, had there been one, would have landed by now
    // One send was recorded for each held message, whichever event and replica came first.
    const released = await n.notifications.prisma.$queryRawUnsafe<{ key: string }[]>(`SELECT idempotency_key AS key FROM notifications.outside_effects WHERE idempotency_key LIKE 'delivery-%' ORDER BY 1`);
    const reminderRow = await reminderOf(key.id);
    expect(released.map((row) => row.key.replace(/wrote-\d+/, 'wrote-N')).sort()).toEqual([`delivery-${confirmation.id}:wrote-N:send-chat-message`, `delivery-${reminderRow.id}:wrote-N:send-chat-message`].sort());
    const texts = n.messages('8700002').map(textOf);
    expect(texts).toHaveLength(2);
    expect(texts.filter((text) => text.includes('хоногийн дараа дуусна') && text.includes(key.key))).toHaveLength(1);
    expect(texts.filter((text) => text.includes('Payment received'))).toHaveLength(1);
    expect(n.messages('8700002').every((message) => message.source === 'sendContent' && message.messageTag === null)).toBe(true);
    await eventually(async () => (await keyView(key.id)).notificationStatus === 'sent', 15_000, 'the key to show its reminder sent');
    expect(await keyView(key.id)).toMatchObject({ notificationError: null, notificationAttempts: 1 });
    expect((await n.call('GET', '/api/manychat/deliveries?status=held')).body.data).toEqual([]);
  });

  it('sends at once a message held just as its subscriber wrote (their event found nothing held yet); one held on their latest message stays held', async () => {
    await quiet('8700004', 2 * DAY);
    // They write now (their message count becomes 2), and the event finds nothing held.
    n.manychat.state.upsertSubscriber({ id: '8700004', last_interaction: new Date().toISOString() });
    await n.wrote('8700004');
    const { prisma, exposed } = n.notifications;
    await eventually(async () => (await prisma.chatSubscriber.findUnique({ where: { subscriberId: '8700004' } }))?.revision === 2, 10_000, 'the second message of 8700004');
    const details = { amount: 35000, description: 'Netflix 1 сар', paidAt: '2026-11-23T08:00:00.000Z' };
    const held = (invoiceId: string) => prisma.delivery.create({ data: { kind: 'payment_confirmation', subscriberId: '8700004', invoiceId, details } });
    const reason = 'held for the test';
    // Decided on their first message, recorded after the second: it goes now, as text.
    const goes = await held('INV-RACE000001');
    await exposed.deliveries.settleNow(goes, { status: 'held', attempts: 1, reason, seen: 1 });
    await eventually(async () => (await prisma.delivery.findUniqueOrThrow({ where: { id: goes.id } })).status === 'sent', 15_000, 'the message held in the race to be sent');
    expect(n.messages('8700004')).toMatchObject([{ source: 'sendContent' }]);
    expect(textOf(n.messages('8700004')[0])).toContain('Payment received');
    const keys = await prisma.$queryRawUnsafe<{ key: string }[]>(`SELECT idempotency_key AS key FROM notifications.outside_effects WHERE idempotency_key LIKE $1`, `delivery-${goes.id}:%`);
    expect(keys).toEqual([{ key: `delivery-${goes.id}:wrote-2:send-chat-message` }]);
    // Decided on their latest message: held until the next one.
    const stays = await held('INV-RACE000002');
    await exposed.deliveries.settleNow(stays, { status: 'held', attempts: 1, reason, seen: 2 });
    expect(await prisma.delivery.findUniqueOrThrow({ where: { id: stays.id } })).toMatchObject({ status: 'held', lastError: reason });
    expect(n.messages('8700004')).toHaveLength(1);
  });

  it('holds a message whose template ManyChat refuses, saying why, and sends it once through the template an admin saves next', async () => {
    await quiet('8700005', 3 * DAY);
    // Set on the page, then withdrawn on Meta's side: ManyChat refuses it by that name.
    await n.useTemplates({ payment_confirmation: 'old_confirmation' });
    n.manychat.state.templates.delete('old_confirmation');
    await n.system.publish(createEnvelope(paymentsInvoicePaid, { ...paymentsInvoicePaid.example, invoiceId: 'INV-REFUSED001', payer: { ...paymentsInvoicePaid.example.payer, subscriberId: '8700005' } }));
    const held = await eventually(async () => {
      const row = await n.notifications.prisma.delivery.findFirst({ where: { invoiceId: 'INV-REFUSED001' } });
      return row?.status === 'held' ? row : undefined;
    }, 15_000, 'the confirmation to be held');
    expect(held.lastError).toContain('Outside the 24-hour window and ManyChat refused the utility template "old_confirmation" (');
    expect(held.lastError).toMatch(/: held until the subscriber writes or a template is saved \(\/manychat-admin\)$/);
    expect(n.messages('8700005')).toEqual([]);

    // Saving a template for the kind sends what it held, through it; saving it again sends nothing more.
    await n.useTemplates({ payment_confirmation: 'confirmation_v2' });
    const sent = await eventually(async () => {
      const row = await n.notifications.prisma.delivery.findUniqueOrThrow({ where: { id: held.id } });
      return row.status === 'sent' ? row : undefined;
    }, 15_000, 'the held confirmation to go out through the saved template');
    expect(sent).toMatchObject({ templateName: 'confirmation_v2', lastError: null });
    await n.useTemplates({ payment_confirmation: 'confirmation_v2' });
    await n.useTemplates({ key_delivery: 'key_delivery' });
    const releases = await n.notifications.prisma.$queryRawUnsafe<{ key: string }[]>(`SELECT idempotency_key AS key FROM notifications.outside_effects WHERE idempotency_key LIKE $1`, `delivery-${held.id}:%`);
    expect(releases).toHaveLength(1);
    expect(n.messages('8700005')).toMatchObject([{ source: 'sendTemplate', templateName: 'confirmation_v2' }]);

    // A message decided on the old name and recorded held after the save (the save's release did not see it): it goes through the new one at once.
    const { prisma, exposed } = n.notifications;
    const { revision } = await prisma.chatSubscriber.findUniqueOrThrow({ where: { subscriberId: '8700005' } });
    const late = await prisma.delivery.create({ data: { kind: 'payment_confirmation', subscriberId: '8700005', invoiceId: 'INV-REFUSED002', details: { amount: 35000, description: 'Netflix 1 сар', paidAt: '2026-11-23T08:00:00.000Z' } } });
    await exposed.deliveries.settleNow(late, { status: 'held', attempts: 1, reason: 'decided on the old name', seen: revision, template: { kind: 'payment_confirmation', name: 'old_confirmation' } });
    await eventually(async () => (await prisma.delivery.findUniqueOrThrow({ where: { id: late.id } })).status === 'sent', 15_000, 'the late-held confirmation to go through the new template');
    expect(n.messages('8700005')).toHaveLength(2);
  });

  it('does not send a chat answer outside the window, and the delivery says why, even with every template set', async () => {
    await quiet('8700003', 3 * DAY);
    await n.useTemplates({ key_delivery: 'key_delivery', payment_confirmation: 'payment_confirmation', renewal_reminder: 'renewal_reminder', key_extension: 'key_extension' });
    const answer = createEnvelope(aiChatAnswerReady, { answerId: 7001, revision: 1, subscriberId: '8700003', text: 'Netflix 1 сар 35,000₮.' });
    const before = n.manychat.journal.total;
    await n.system.publish(answer);
    const row = await eventually(async () => {
      const found = await n.notifications.prisma.delivery.findFirst({ where: { eventId: answer.id } });
      return found && found.status !== 'pending' ? found : undefined;
    }, 15_000, 'the chat answer to be decided');
    expect(row).toMatchObject({ kind: 'chat_answer', status: 'failed', lastError: CHAT_ANSWER_OUTSIDE_WINDOW, sentText: null, templateName: null });
    expect(CHAT_ANSWER_OUTSIDE_WINDOW).toBe('Outside the 24-hour window: a chat answer has no utility template, so it was not sent');
    expect(n.messages('8700003')).toEqual([]);
    expect(n.manychat.journal.total).toBe(before); // ManyChat was not even asked
  });
});
