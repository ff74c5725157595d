/** The RabbitMQ topology: exchanges, each consuming service's quorum queue and dead-letter queue, and dead-letter reading. */
import type { Channel, GetMessage, MessageProperties, Options } from 'amqplib';
import { describeContent, MAX_ATTEMPTS_LIMIT, type DeadLetter } from './transport';

/** The one durable topic exchange every event is published to, routed by event name. */
export const EVENTS_EXCHANGE = 'events';
/** Where failed messages go, routed by the consuming service's name. */
export const DEAD_LETTER_EXCHANGE = 'events.dead-letter';

export const deadLetterQueue = (service: string): string => `${service}.dead-letter`;

/** Headers we put on a parked message so an operator sees why it failed. */
export const deadHeaders = { reason: 'x-dead-reason', attempts: 'x-attempts', at: 'x-dead-lettered-at' } as const;

export async function declareExchanges(channel: Channel): Promise<void> {
  await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
  await channel.assertExchange(DEAD_LETTER_EXCHANGE, 'direct', { durable: true });
}

/**
 * The queue arguments, FIXED CONSTANTS on purpose. RabbitMQ refuses to re-declare a queue with
 * different x-arguments (PRECONDITION_FAILED closes the channel), and every service declares every
 * queue of the topology at start, so the arguments must not depend on any service's settings.
 * - `x-delivery-limit` is a broker-side back-stop (3.10 has no default, 4.x defaults to 20) for
 *   consumers that crash before they can count; the retry bound a service chooses is its own
 *   `maxAttempts` (counted from x-delivery-count, changeable at will, at most this limit).
 * - dead-lettering goes to the dead-letter exchange, routed by the queue's name.
 * We chose constants over a broker policy because a policy needs an operator step on every broker
 * (and in every test vhost); to change these for an existing queue, set a policy
 * (`rabbitmqctl set_policy`, which overrides them without a re-declare) or re-create the queue.
 */
export const QUEUE_ARGUMENTS = {
  'x-queue-type': 'quorum',
  'x-delivery-limit': MAX_ATTEMPTS_LIMIT,
  'x-dead-letter-exchange': DEAD_LETTER_EXCHANGE,
} as const;

/**
 * The service's durable quorum queue bound to the given event names, and its dead-letter queue.
 * The dead-letter queue is a classic durable queue: listing it takes messages and returns them,
 * which a quorum queue would count as deliveries and, on 4.x, eventually drop.
 */
export async function declareServiceQueues(channel: Channel, service: string, bindings: readonly string[]): Promise<void> {
  await declareExchanges(channel);
  const deadLetters = deadLetterQueue(service);
  await channel.assertQueue(deadLetters, { durable: true, arguments: { 'x-queue-type': 'classic' } });
  await channel.bindQueue(deadLetters, DEAD_LETTER_EXCHANGE, service);
  await channel.assertQueue(service, { durable: true, arguments: { ...QUEUE_ARGUMENTS, 'x-dead-letter-routing-key': service } });
  for (const binding of bindings) await channel.bindQueue(service, EVENTS_EXCHANGE, binding);
}

/** Properties of a fresh copy of a message: no broker counters, no dead-letter history. */
export function freshProperties(properties: MessageProperties, headers: Record<string, unknown> = {}): Options.Publish {
  return {
    persistent: true,
    messageId: properties.messageId,
    type: properties.type,
    contentType: properties.contentType,
    correlationId: properties.correlationId,
    timestamp: properties.timestamp,
    headers,
  };
}

/** Reads a dead-lettered message: parked by us (our headers) or by the broker (`x-death`). */
export function toDeadLetter(message: GetMessage): DeadLetter {
  const headers = message.properties.headers ?? {};
  const death = (headers['x-death'] as Array<{ reason?: string; time?: unknown }> | undefined)?.[0];
  const content = message.content.toString();
  return {
    ...describeContent(content, String(message.properties.messageId ?? 'unknown')),
    reason: String(headers[deadHeaders.reason] ?? `broker: ${death?.reason ?? 'unknown'}`),
    attempts: Number(headers[deadHeaders.attempts] ?? headers['x-delivery-count'] ?? 0),
    deadLetteredAt: String(headers[deadHeaders.at] ?? deathTime(death?.time)),
    content,
  };
}

function deathTime(time: unknown): string {
  const seconds = typeof time === 'number' ? time : Number((time as { value?: unknown } | undefined)?.value);
  return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : '';
}

/**
 * Takes up to `limit` messages off the service's dead-letter queue without acking them; closing
 * the channel afterwards puts back every message that was not acked.
 */
export async function takeDeadLetters(channel: Channel, service: string, limit: number): Promise<GetMessage[]> {
  const taken: GetMessage[] = [];
  while (taken.length < limit) {
    const message = await channel.get(deadLetterQueue(service), { noAck: false });
    if (!message) break;
    taken.push(message);
  }
  return taken;
}
