/**
 * The purchase messages (ADR 14), in the two steps of every outside call (events/README.md): the
 * consumer records the purchase and the message (a deliveries row and its outside effect) in the
 * inbox transaction; the message is composed and sent after the commit. A key delivery reads the
 * key's sign-in details from streaming-keys at send time, so a changed password reaches it.
 */
import { onEvent, outsideEffect, outsideEffectDefaults, type OutsideEffect, type OutsideEffects } from '@bo/platform/events';
import { ServiceCallError, type ServiceClient } from '@bo/platform';
import { aiChatAnswerReady, aiChatSubscriberWrote, keyDelivery, paymentsInvoicePaid, streamingKeyAssigned, streamingKeyExtended, type KeyDelivery } from '@bo/proto';
import { ManyChatError, type MessageTag } from '../clients/manychat';
import { keyDeliveryText, keyExtensionText, paymentConfirmationText, sampleKeyDelivery, type PaymentConfirmationData } from '../domain/templates';
import type { Prisma, PrismaClient } from '../generated/prisma/client';
import { chatSubscribersStore } from '../store/chat-subscribers-store';
import { deliveriesStore, type DeliveryRecord, type NewDelivery } from '../store/deliveries-store';
import { purchasesStore } from '../store/purchases-store';
import { ChatMessenger, IN_WINDOW_ONLY, NotConfiguredError, PURCHASE_UPDATE, type TagPolicy } from './messenger';

/** What the deliveries list keeps of a key delivery instead of the account's password. */
const MASKED_PASSWORD = '••••••';

export interface ChatDeliveriesDeps {
  prisma: PrismaClient;
  messenger: ChatMessenger;
  streamingKeys: ServiceClient;
}

type Composed = { optedOut: true } | { optedOut: false; text: string; recordedText: string; policy: TagPolicy };

/** A message ManyChat accepted, as its deliveries row records it (null: nothing was sent). */
type Sent = { attempts: number; messageTag: MessageTag | null; text: string } | null;

export type TestOutcome = { sent: true } | { sent: false; notConfigured: boolean; error: string };

/** Worth another try later: ManyChat rate-limited, failed or did not answer; streaming-keys could not be reached. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ManyChatError) return error.retryable;
  if (error instanceof ServiceCallError) return error.status >= 500;
  return false;
}

/** Reading the deliveries row before a send. */
const READ_MS = 5_000;

export class ChatDeliveries {
  /**
   * The outside effect the consumers record: send one deliveries row's message. Its deadline is
   * what one delivery may take at most (the key's details from streaming-keys, then a send that
   * may go twice through all of ManyChat's tries), so a slow ManyChat never outlasts the claim
   * and no second replica sends the same message meanwhile. A sent message's row is marked sent
   * in the transaction that marks the effect done, so a database away right after the send (for
   * however long) never makes the message go twice.
   */
  readonly effect: OutsideEffect<{ deliveryId: number }, Sent>;

  constructor(private readonly deps: ChatDeliveriesDeps) {
    const deadlineMs = READ_MS + deps.streamingKeys.timeoutOf() + deps.messenger.sendDeadlineMs;
    this.effect = outsideEffect<{ deliveryId: number }, Sent, Prisma.TransactionClient>('send-chat-message', (payload, context) => this.deliver(payload.deliveryId, context.attempt, context.signal), {
      deadlineMs,
      recordDone: async (tx, payload, sent) => {
        if (sent) await deliveriesStore.sent(tx, payload.deliveryId, sent);
      },
    });
  }

  /**
   * The consumers of payments.invoice.paid, streaming.key.assigned, streaming.key.extended and
   * ai-chat.answer.ready; and of ai-chat.subscriber.wrote, which keeps when each subscriber last
   * wrote (their 24-hour window).
   * Each event is a message of its own, so a key event overtaken by a newer one of its key (an
   * admin's extend right after the sale) is still delivered: `everyRevision`.
   */
  consumers(effects: OutsideEffects) {
    const every = { everyRevision: true };
    const record = async (tx: Prisma.TransactionClient, eventId: string, delivery: Omit<NewDelivery, 'eventId'>) => {
      const row = await deliveriesStore.create(tx, { ...delivery, eventId });
      await effects.record(tx, eventId, this.effect, { deliveryId: row.id });
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
      onEvent(aiChatSubscriberWrote, async (tx: Prisma.TransactionClient, event) => {
        await chatSubscribersStore.wrote(tx, event.payload.subscriberId, new Date(event.payload.at), event.payload.revision);
      }),
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
    try {
      if (!messenger.configured) throw new NotConfiguredError();
      const message = await this.compose(delivery, signal);
      if (message.optedOut) {
        await deliveriesStore.notSent(prisma, deliveryId, { attempts: attempt, error: null, status: 'opted_out' });
        return null;
      }
      const { messageTag } = await messenger.send(delivery.subscriberId, message.text, message.policy, signal);
      return { attempts: attempt, messageTag, text: message.recordedText };
    } catch (error) {
      const again = isTransient(error) && attempt < outsideEffectDefaults.maxAttempts;
      await deliveriesStore.notSent(prisma, deliveryId, { attempts: attempt, error: (error as Error).message, status: again ? 'pending' : 'failed' });
      if (again) throw error;
      return null;
    }
  }

  /** The key-delivery message on sample data to one subscriber, now; recorded as a `test` delivery. */
  async sendTest(subscriberId: string): Promise<TestOutcome> {
    const { prisma, messenger } = this.deps;
    const delivery = await deliveriesStore.create(prisma, { kind: 'test', subscriberId });
    const text = keyDeliveryText(sampleKeyDelivery);
    try {
      const { messageTag } = await messenger.send(subscriberId, text, PURCHASE_UPDATE);
      await deliveriesStore.sent(prisma, delivery.id, { attempts: 1, messageTag, text });
      return { sent: true };
    } catch (error) {
      const message = (error as Error).message;
      await deliveriesStore.notSent(prisma, delivery.id, { attempts: 1, error: message, status: 'failed' });
      return { sent: false, notConfigured: error instanceof NotConfiguredError, error: message };
    }
  }

  private async compose(delivery: DeliveryRecord, signal?: AbortSignal): Promise<Composed> {
    switch (delivery.kind) {
      case 'payment_confirmation': {
        const text = paymentConfirmationText(delivery.details as unknown as PaymentConfirmationData);
        return { optedOut: false, text, recordedText: text, policy: PURCHASE_UPDATE };
      }
      case 'key_delivery': {
        const key = await this.keyDetails(delivery, signal);
        if (key.isOptedOut) return { optedOut: true };
        return {
          optedOut: false,
          text: keyDeliveryText(key),
          recordedText: keyDeliveryText({ ...key, accountPassword: key.accountPassword === null ? null : MASKED_PASSWORD }),
          policy: PURCHASE_UPDATE,
        };
      }
      case 'key_extension': {
        const key = await this.keyDetails(delivery, signal);
        if (key.isOptedOut) return { optedOut: true };
        const text = keyExtensionText({ serviceName: key.serviceName, key: key.key, expiresAt: (delivery.details as { expiresAt: string }).expiresAt });
        return { optedOut: false, text, recordedText: text, policy: PURCHASE_UPDATE };
      }
      case 'chat_answer': {
        const { text } = delivery.details as { text: string };
        return { optedOut: false, text, recordedText: text, policy: IN_WINDOW_ONLY };
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
