import { alertChangedEventOf } from '../alerts';
import { domainServiceNames } from '../services';
import { aiChatAnswerReady, aiChatAutomationChanged, aiChatFlowRequested, aiChatSubscriberWrote } from './ai-chat-events';
import { notificationsReminderRecorded } from './notifications-reminder-recorded';
import { paymentsInvoicePaid } from './payments-invoice-paid';
import { pricingPriceUpdated } from './pricing-price-updated';
import { streamingKeyAssigned, streamingKeyExtended } from './streaming-key-events';

/**
 * Which service consumes which events, as data. Every service declares ALL of these queues and
 * bindings when it starts (on either transport), so an event published before its consumer first
 * ran waits in that consumer's queue instead of being unroutable. A consuming service's queue is
 * named after the service; bindings are event names (RabbitMQ topic patterns `*` and `#` work too).
 */
export interface TopologyEntry {
  consumer: string;
  events: readonly string[];
}

export const eventTopology: readonly TopologyEntry[] = [
  // shop-sync pushes edited prices to the shop.
  { consumer: 'shop-sync', events: [pricingPriceUpdated.name] },
  // streaming-keys assigns or extends a key for a paid order, and keeps each key's reminder status.
  { consumer: 'streaming-keys', events: [paymentsInvoicePaid.name, notificationsReminderRecorded.name] },
  // ai-chat marks the chat's purchases paid.
  { consumer: 'ai-chat', events: [paymentsInvoicePaid.name] },
  // notifications tells the customer: payment confirmation, key delivery (and records the purchase), the chat's late AI answers and mapped flows;
  // a subscriber who writes opens their 24-hour window, and what was held for them goes out; a person's takeover holds every message.
  // Every service's alerts that fire or resolve go to the admin's ManyChat subscriber, when one is set.
  {
    consumer: 'notifications',
    events: [
      paymentsInvoicePaid.name, streamingKeyAssigned.name, streamingKeyExtended.name, aiChatAnswerReady.name, aiChatFlowRequested.name, aiChatSubscriberWrote.name, aiChatAutomationChanged.name,
      ...domainServiceNames.map((service) => alertChangedEventOf(service).name),
    ],
  },
];

/** The events `consumer` is bound to in the topology (empty when it consumes nothing). */
export function eventsConsumedBy(consumer: string, topology: readonly TopologyEntry[] = eventTopology): readonly string[] {
  return topology.find((entry) => entry.consumer === consumer)?.events ?? [];
}
