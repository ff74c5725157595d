/**
 * The chat messages (ADR 14), in the two steps of every outside call (events/README.md): the
 * consumer records the message (a deliveries row and its outside effect) in the inbox
 * transaction; the message is composed and sent after the commit. A key delivery reads the key's
 * sign-in details from streaming-keys at send time, so a changed password reaches it.
 *
 * Outside the 24-hour window a message goes through its kind's utility template; with none set it
 * is held, and the subscriber's next message (ai-chat.subscriber.wrote) sends every message held
 * for them, each once, as an outside effect of that event. Renewal reminders are sent by the expiry
 * check; one held goes out the same way, and its outcome is the reminder's (settle).
 */
import { randomUUID } from 'node:crypto';
import { onEvent, outsideEffect, outsideEffectDefaults, type OutsideEffect, type OutsideEffects, type Outbox } from '@bo/platform/events';
import { ServiceCallError, type ServiceClient } from '@bo/platform';
import {
  aiChatAnswerReady, aiChatAutomationChanged, aiChatFlowRequested, aiChatSubscriberWrote, alertChangedEventOf, BASE_URL_WARNING, createRenewalSession, domainServiceNames, keyDelivery,
  notificationsReminderRecorded, paymentsInvoicePaid, streamingKeyAssigned, streamingKeyExtended, templateSettingKey, type KeyDelivery, type TemplateKind,
} from '@bo/proto';
import { ManyChatError } from '../clients/manychat';
import {
  alertMessage, chatAnswerMessage, chatFlowMessage, keyDeliveryMessage, keyExtensionMessage, paymentConfirmationMessage, recordedText, renewalReminderMessage, sampleKeyDelivery,
  type AlertMessageData, type ChatMessage, type PaymentConfirmationData,
} from '../domain/templates';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { chatPausesStore } from '../store/chat-pauses-store';
import { chatSubscribersStore } from '../store/chat-subscribers-store';
import { deliveriesStore, type DeliveryRecord, type NewDelivery } from '../store/deliveries-store';
import { purchasesStore } from '../store/purchases-store';
import { remindersStore } from '../store/reminders-store';
import { settingsStore } from '../store/settings-store';
import { NotConfiguredError, type ChatMessenger, type TriedTemplate } from './messenger';

/** What the deliveries list keeps of a key delivery instead of the account's password. */
const MASKED_PASSWORD = '••••••';
/** Months a reminder's renewal link offers (the customer may pick another on the payment page's order). */
const RENEWAL_MONTHS = 1;
/** Why a held reminder is not sent when its subscriber writes: the key it was about has changed. */
const REMINDER_NO_LONGER_DUE = 'No longer due: the key was renewed or has expired since the reminder was held';

export interface ChatDeliveriesDeps {
  prisma: PrismaClient;
  outbox: Outbox<Prisma.TransactionClient>;
  effects: OutsideEffects;
  messenger: ChatMessenger;
  streamingKeys: ServiceClient;
}

/** The delivery fields an outcome is recorded against. */
type Target = Pick<DeliveryRecord, 'id' | 'subscriberId' | 'reminderId' | 'keyId'>;

/**
 * What became of one message. `attempts`: the delivery's tries (a reminder's are counted by its
 * reminders row instead, from `tried`: a send was made). `seen` (held): the last interaction the
 * decision was made on.
 */
export type Outcome =
  | { status: 'sent'; attempts: number; templateName: string | null; text: string }
  | { status: 'held'; attempts: number; reason: string; seen: number | null; template?: TriedTemplate }
  | { status: 'failed' | 'opted_out'; attempts: number; reason: string | null; tried: boolean };

/** What a message was composed into: the message and how it is recorded, or why it is not sent. */
type Composed = { message: ChatMessage; recorded: ChatMessage } | { skip: 'opted_out' | 'failed'; reason: string | null };

/** A message ManyChat accepted, as the effect's done-transaction records it (null: nothing was sent). */
type Sent = { target: Target; outcome: Outcome & { status: 'sent' } } | null;

/** A test's outcome; not sent: the HTTP status that says why (409 outside the window with no template, 502 ManyChat refused, 503 not configured). */
export type TestOutcome = { sent: true } | { sent: false; status: 409 | 502 | 503; error: string };

/** Worth another try later: ManyChat rate-limited, failed or did not answer; streaming-keys could not be reached. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ManyChatError) return error.retryable;
  if (error instanceof ServiceCallError) return error.status >= 500;
  return false;
}

/** Reading the deliveries row and the settings before a send, and a renewal session for a held reminder. */
const READ_MS = 5_000;
/**
 * A template save (an operator waiting on the page) releases every held message of its kind in
 * one transaction: while the consumers are busy (a burst of subscribers writing) it may wait for a
 * connection longer than Prisma's 2 s, and a few hundred held messages take longer than its 5 s.
 */
const SAVE_TRANSACTION = { maxWait: 10_000, timeout: 30_000 };

export class ChatDeliveries {
  /**
   * The outside effect that sends one deliveries row's message. Its deadline is what one delivery
   * may take at most (the key's details or a renewal link from streaming-keys, then a send that
   * may go twice through all of ManyChat's tries: the text, then the template), so a slow ManyChat
   * never outlasts the claim and no second replica sends the same message meanwhile. A sent
   * message's row is marked sent in the transaction that marks the effect done, so a database away
   * right after the send (for however long) never makes the message go twice.
   */
  readonly effect: OutsideEffect<{ deliveryId: number }, Sent>;

  constructor(private readonly deps: ChatDeliveriesDeps) {
    const deadlineMs = READ_MS + deps.streamingKeys.timeoutOf() + deps.messenger.sendDeadlineMs;
    this.effect = outsideEffect<{ deliveryId: number }, Sent, Prisma.TransactionClient>('send-chat-message', (payload, context) => this.deliver(payload.deliveryId, context.attempt, context.signal), {
      deadlineMs,
      recordDone: async (tx, _payload, sent) => {
        if (!sent) return;
        const event = await this.settle(tx, sent.target, sent.outcome);
        if (event) await deps.outbox.enqueue(tx, notificationsReminderRecorded, event);
      },
    });
  }

  /**
   * The consumers of payments.invoice.paid, streaming.key.assigned, streaming.key.extended,
   * ai-chat.answer.ready and every service's alert.changed; and of ai-chat.subscriber.wrote, which keeps when each subscriber last
   * wrote (their 24-hour window) and sends what was held for them.
   * Each event is a message of its own, so a key event overtaken by a newer one of its key (an
   * admin's extend right after the sale) is still delivered: `everyRevision`.
   */
  consumers() {
    const every = { everyRevision: true };
    const record = async (tx: Prisma.TransactionClient, eventId: string, delivery: Omit<NewDelivery, 'eventId'>) => {
      const row = await deliveriesStore.create(tx, { ...delivery, eventId });
      await this.deps.effects.record(tx, eventId, this.effect, { deliveryId: row.id });
    };
    return [
      onEvent(paymentsInvoicePaid, async (tx: Prisma.TransactionClient, event) => {
        const { invoiceId, amount, description, paidAt, payer, order } = event.payload;
        const customerId = await purchasesStore.upsertCustomer(tx, payer.subscriberId, payer);
        await purchasesStore.recordPaid(tx, customerId, {
          invoiceId, amount, paidAt: new Date(paidAt),
          service: order.kind === 'streaming' ? order.serviceCode : null,
          duration: order.kind === 'custom' ? null : order.months,
          keyId: order.kind === 'renewal' ? order.keyId : null,
          completed: order.kind === 'custom',
        });
        if (!payer.subscriberId) return;
        const details: PaymentConfirmationData = { amount, description, paidAt };
        await record(tx, event.id, { kind: 'payment_confirmation', subscriberId: payer.subscriberId, invoiceId, details: { ...details } });
      }, every),
      onEvent(streamingKeyAssigned, async (tx: Prisma.TransactionClient, event) => {
        const key = event.payload;
        const subscriberId = key.customerId ?? key.payer.subscriberId;
        const customerId = await purchasesStore.upsertCustomer(tx, subscriberId, key.payer);
        await purchasesStore.completeWithKey(tx, customerId, {
          invoiceId: key.invoiceId, keyId: key.keyId, service: key.service, duration: key.months, amount: key.amount, expiresAt: new Date(key.expiresAt), subscriberId,
        });
        if (!subscriberId) return;
        await record(tx, event.id, { kind: 'key_delivery', subscriberId, keyId: key.keyId, invoiceId: key.invoiceId });
      }, every),
      onEvent(streamingKeyExtended, async (tx: Prisma.TransactionClient, event) => {
        const key = event.payload;
        // An admin's extend (no invoice) is not the customer's purchase: no message.
        if (!key.invoiceId) return;
        const customerId = await purchasesStore.upsertCustomer(tx, key.customerId);
        await purchasesStore.completeWithKey(tx, customerId, {
          invoiceId: key.invoiceId, keyId: key.keyId, service: key.service, duration: key.months, amount: key.amount, expiresAt: new Date(key.expiresAt), subscriberId: key.customerId,
        });
        if (!key.customerId) return;
        await record(tx, event.id, { kind: 'key_extension', subscriberId: key.customerId, keyId: key.keyId, invoiceId: key.invoiceId, details: { expiresAt: key.expiresAt } });
      }, every),
      onEvent(aiChatAnswerReady, async (tx: Prisma.TransactionClient, event) => {
        await record(tx, event.id, { kind: 'chat_answer', subscriberId: event.payload.subscriberId, details: { text: event.payload.text } });
      }),
      onEvent(aiChatFlowRequested, async (tx: Prisma.TransactionClient, event) => {
        const { subscriberId, flowNamespace, product } = event.payload;
        await record(tx, event.id, { kind: 'chat_flow', subscriberId, details: { flowNamespace, product } });
      }),
      onEvent(aiChatSubscriberWrote, async (tx: Prisma.TransactionClient, event) => {
        const { subscriberId, at, revision } = event.payload;
        await chatSubscribersStore.lock(tx, subscriberId);
        await chatSubscribersStore.wrote(tx, subscriberId, new Date(at), revision);
        for (const deliveryId of await deliveriesStore.releaseHeld(tx, subscriberId)) await this.sendAgain(tx, deliveryId, revision);
      }),
      onEvent(aiChatAutomationChanged, async (tx: Prisma.TransactionClient, event) => {
        const { subscriberId, paused, pausedUntil, revision } = event.payload;
        await chatPausesStore.changed(tx, subscriberId, { paused, pausedUntil: pausedUntil === null ? null : new Date(pausedUntil), revision });
      }),
      // Every service's alerts that fire or resolve, to the admin's subscriber when one is set (a "fired" after its "resolved" is skipped).
      ...domainServiceNames.map((service) =>
        onEvent(alertChangedEventOf(service), async (tx: Prisma.TransactionClient, event) => {
          const { alertSubscriberId } = await settingsStore.read(tx);
          if (!alertSubscriberId) return;
          const { change, alert } = event.payload;
          const details: AlertMessageData = { change, service: alert.service, title: alert.title, message: alert.message, at: (change === 'fired' ? alert.firedAt : alert.resolvedAt) ?? alert.lastSeenAt };
          await record(tx, event.id, { kind: 'alert', subscriberId: alertSubscriberId, details: { ...details } });
        }),
      ),
    ];
  }

  /**
   * Sends one recorded message unless it was already decided, and answers what was sent (the
   * effect runner records it). A refusal that retrying cannot fix (bad token, unknown subscriber,
   * not configured, key gone) fails it at once; a rate limit, server error or timeout is left
   * pending for the effect runner's next try, and failed when its tries are used up.
   */
  async deliver(deliveryId: number, attempt: number, signal?: AbortSignal): Promise<Sent> {
    const { prisma, messenger } = this.deps;
    const delivery = await deliveriesStore.find(prisma, deliveryId);
    if (!delivery || delivery.status !== 'pending') return null;
    const decide = (outcome: Outcome) => this.settleNow(delivery, outcome);
    try {
      if (!messenger.configured) throw new NotConfiguredError();
      const composed = await this.compose(delivery, signal);
      if ('skip' in composed) {
        await decide({ status: composed.skip, attempts: attempt, reason: composed.reason, tried: false });
        return null;
      }
      const sent = await messenger.send(delivery.subscriberId, composed.message, signal);
      if (sent.status === 'sent') {
        return { target: delivery, outcome: { status: 'sent', attempts: attempt, templateName: sent.templateName, text: recordedText(composed.recorded, sent.templateName) } };
      }
      await decide(sent.status === 'held' ? { ...sent, attempts: attempt } : { status: 'failed', attempts: attempt, reason: sent.reason, tried: false });
      return null;
    } catch (error) {
      const reason = (error as Error).message;
      if (isTransient(error) && attempt < outsideEffectDefaults.maxAttempts) {
        await deliveriesStore.notSent(prisma, deliveryId, { attempts: attempt, error: reason, status: 'pending' });
        throw error;
      }
      await decide({ status: 'failed', attempts: attempt, reason, tried: !(error instanceof NotConfiguredError) });
      return null;
    }
  }

  /** Records an outcome in a transaction of its own, with the reminder's event when it is one. */
  settleNow(target: Target, outcome: Outcome): Promise<void> {
    return this.deps.outbox.commit(async (tx, emit) => {
      const event = await this.settle(tx, target, outcome);
      if (event) emit(notificationsReminderRecorded, event);
    });
  }

  /**
   * Writes an outcome to the message's row and, for a reminder, to the reminder and its key's
   * counters, answering the reminder's notifications.reminder.recorded payload (null otherwise).
   * A message held under the subscriber's lock is sent at once instead if they wrote since the
   * decision: their event, committed meanwhile, found nothing held to send (a reminder stays
   * recorded held until that send decides it).
   */
  async settle(tx: Prisma.TransactionClient, target: Target, outcome: Outcome) {
    const latest = outcome.status === 'held' ? await chatSubscribersStore.lock(tx, target.subscriberId) : null;
    const reason = outcome.status === 'sent' ? null : outcome.reason;
    let attempts = outcome.attempts;
    let event = null;
    if (target.reminderId !== null && target.keyId !== null) {
      const tried = outcome.status === 'sent' || (outcome.status !== 'held' && outcome.tried);
      const counters = await remindersStore.decide(tx, target.reminderId, target.keyId, { status: outcome.status, error: reason, tried });
      if (outcome.status === 'sent') await purchasesStore.markReminded(tx, target.keyId, counters.expiresAt);
      attempts = counters.reminderAttempts;
      event = {
        keyId: target.keyId, revision: counters.revision, expiresAt: counters.expiresAt.toISOString(), status: outcome.status, attempts: counters.keyAttempts, at: new Date().toISOString(), error: reason,
      };
    }
    if (outcome.status === 'sent') {
      await deliveriesStore.sent(tx, target.id, { attempts, templateName: outcome.templateName, text: outcome.text });
    } else if (outcome.status === 'held' && latest && latest.revision !== outcome.seen) {
      await deliveriesStore.notSent(tx, target.id, { attempts, error: reason, status: 'pending' });
      await this.sendAgain(tx, target.id, latest.revision);
    } else if (outcome.status === 'held' && outcome.template && (await this.templateChanged(tx, outcome.template))) {
      // An admin saved the kind's template while this was decided on the old one: it goes through the new one now.
      await deliveriesStore.notSent(tx, target.id, { attempts, error: reason, status: 'pending' });
      await this.sendThroughSaved(tx, target.id, randomUUID());
    } else {
      await deliveriesStore.notSent(tx, target.id, { attempts, error: reason, status: outcome.status });
    }
    return event;
  }

  /** The key-delivery message on sample data to one subscriber, now; recorded as a `test` delivery. */
  async sendTest(subscriberId: string): Promise<TestOutcome> {
    const { prisma, messenger } = this.deps;
    const delivery = await deliveriesStore.create(prisma, { kind: 'test', subscriberId });
    const message = keyDeliveryMessage(sampleKeyDelivery);
    const failed = async (status: 409 | 502 | 503, error: string): Promise<TestOutcome> => {
      await deliveriesStore.notSent(prisma, delivery.id, { attempts: 1, error, status: 'failed' });
      return { sent: false, status, error };
    };
    try {
      const sent = await messenger.send(subscriberId, message);
      // Held for a template ManyChat refused is ManyChat's refusal (502); held for want of one, or paused, is ours (409).
      if (sent.status !== 'sent') return failed(sent.status === 'held' && sent.refused ? 502 : 409, sent.status === 'held' ? `${sent.cause}: a test is never held, so it was not sent` : sent.reason);
      await deliveriesStore.sent(prisma, delivery.id, { attempts: 1, templateName: sent.templateName, text: recordedText(message, sent.templateName) });
      return { sent: true };
    } catch (error) {
      return failed(error instanceof NotConfiguredError ? 503 : 502, (error as Error).message);
    }
  }

  /** A renewal reminder's message, with a renewal link from streaming-keys (a session still open is answered again). */
  async reminderMessage(key: { keyId: number; serviceName: string; key: string; expiresAt: string }, baseUrl: string, signal?: AbortSignal): Promise<ChatMessage> {
    const session = await this.deps.streamingKeys.call(createRenewalSession, { body: { keyId: key.keyId, months: RENEWAL_MONTHS }, signal });
    return renewalReminderMessage({ serviceName: key.serviceName, key: key.key, expiresAt: key.expiresAt, renewalUrl: `${baseUrl}${session.path}` }, new Date());
  }

  /**
   * An admin saves the utility template of `kind` (empty clears it): with a name, its held messages
   * go out now through it (a paused subscriber's are decided again as any send is). One
   * transaction, under the kind's lock, so a message being held on the old name meanwhile is not missed.
   */
  async templateSaved(kind: TemplateKind, name: string): Promise<number> {
    const released = await this.deps.prisma.$transaction(async (tx) => {
      await settingsStore.lockTemplate(tx, kind);
      await settingsStore.write(tx, templateSettingKey(kind), name);
      if (!name) return 0;
      const ids = await deliveriesStore.releaseHeldOfKind(tx, kind);
      const save = randomUUID();
      for (const deliveryId of ids) await this.sendThroughSaved(tx, deliveryId, save);
      return ids.length;
    }, SAVE_TRANSACTION);
    if (released > 0) this.deps.effects.nudge();
    return released;
  }

  /** Whether the kind's template is no longer the one a held message was decided on (under the save's lock). */
  private async templateChanged(tx: Prisma.TransactionClient, tried: TriedTemplate): Promise<boolean> {
    await settingsStore.lockTemplate(tx, tried.kind);
    return (await settingsStore.read(tx)).templates[tried.kind] !== tried.name;
  }

  /** A message released by a template save goes out as an effect keyed by that save (a later save may release it again). */
  private async sendThroughSaved(tx: Prisma.TransactionClient, deliveryId: number, save: string): Promise<void> {
    await this.deps.effects.record(tx, `delivery-${deliveryId}:template-${save}`, this.effect, { deliveryId });
  }

  /** A message released from held goes out as an effect keyed by the subscriber's message that released it: once. */
  private async sendAgain(tx: Prisma.TransactionClient, deliveryId: number, revision: number): Promise<void> {
    await this.deps.effects.record(tx, `delivery-${deliveryId}:wrote-${revision}`, this.effect, { deliveryId });
  }

  private async compose(delivery: DeliveryRecord, signal?: AbortSignal): Promise<Composed> {
    const same = (message: ChatMessage): Composed => ({ message, recorded: message });
    switch (delivery.kind) {
      case 'payment_confirmation':
        return same(paymentConfirmationMessage(delivery.details as unknown as PaymentConfirmationData));
      case 'key_delivery': {
        const key = await this.keyDetails(delivery, signal);
        if (key.isOptedOut) return { skip: 'opted_out', reason: null };
        return { message: keyDeliveryMessage(key), recorded: keyDeliveryMessage({ ...key, accountPassword: key.accountPassword === null ? null : MASKED_PASSWORD }) };
      }
      case 'key_extension': {
        const key = await this.keyDetails(delivery, signal);
        if (key.isOptedOut) return { skip: 'opted_out', reason: null };
        return same(keyExtensionMessage({ serviceName: key.serviceName, key: key.key, expiresAt: (delivery.details as { expiresAt: string }).expiresAt }));
      }
      case 'chat_answer':
        return same(chatAnswerMessage((delivery.details as { text: string }).text));
      case 'alert':
        return same(alertMessage(delivery.details as unknown as AlertMessageData));
      case 'chat_flow': {
        const { flowNamespace, product } = delivery.details as { flowNamespace: string; product: string };
        return same(chatFlowMessage(flowNamespace, product));
      }
      case 'renewal_reminder': {
        // Only a held reminder comes this way (the expiry check sends the rest): it is sent as it would be now.
        const key = await this.keyDetails(delivery, signal);
        if (key.isOptedOut) return { skip: 'opted_out', reason: null };
        const { expiresAt } = delivery.details as { expiresAt: string };
        if (Date.parse(key.expiresAt) !== Date.parse(expiresAt) || Date.parse(expiresAt) <= Date.now()) return { skip: 'failed', reason: REMINDER_NO_LONGER_DUE };
        const { baseUrl } = await settingsStore.read(this.deps.prisma);
        if (!baseUrl) return { skip: 'failed', reason: BASE_URL_WARNING };
        return same(await this.reminderMessage({ keyId: key.keyId, serviceName: key.serviceName, key: key.key, expiresAt }, baseUrl, signal));
      }
      default:
        throw new Error(`a ${delivery.kind} message is not sent by the delivery runner`);
    }
  }

  /** The key as it is now, with its account's current sign-in details (never stored here). */
  private keyDetails(delivery: DeliveryRecord, signal?: AbortSignal): Promise<KeyDelivery> {
    if (delivery.keyId === null) throw new Error(`delivery ${delivery.id} names no key`);
    return this.deps.streamingKeys.call(keyDelivery, { params: { keyId: delivery.keyId }, signal });
  }
}
