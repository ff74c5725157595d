/** The transport contract both buses implement (RabbitMQ; PostgreSQL for the embedded run) and the delivery rules they share. */
import { eventEnvelopeSchema, type EventEnvelope, type TopologyEntry } from '@bo/proto';

/** One delivery handed to a consumer; `attempt` starts at 1 and grows with every redelivery. */
export interface Delivery {
  envelope: EventEnvelope;
  attempt: number;
}

/**
 * Resolving acks the message. Throwing retries it (up to `maxAttempts`), then parks it in the
 * service's dead letters; throwing an UnprocessableEventError parks it at once.
 */
export type DeliveryHandler = (delivery: Delivery) => Promise<void>;

/** A consuming service's queue: its name is the service, bound to event names (topic patterns: `*`, `#`). */
export interface ConsumerSpec {
  service: string;
  bindings: string[];
  /** Unacked deliveries in flight at once. */
  prefetch?: number;
  /** Deliveries before a failing message is dead-lettered (at most MAX_ATTEMPTS_LIMIT). */
  maxAttempts?: number;
  /** Pause before a failed message is handed out again; doubles per attempt. */
  retryDelayMs?: number;
}

/** A message an operator can inspect and replay. */
export interface DeadLetter {
  /** The envelope id (or the broker message id when the content was not an envelope). */
  id: string;
  name: string;
  reason: string;
  attempts: number;
  deadLetteredAt: string;
  /** The raw content as published (an envelope in JSON, unless it was malformed). */
  content: string;
}

export interface Subscription {
  /** Stops receiving; waits for in-flight handlers. The queue and its bindings stay. */
  stop(): Promise<void>;
}

/** What /ready and /metrics show of a transport: the connection and each consumer of this process. */
export interface TransportHealth {
  connected: boolean;
  consumers: Array<{ service: string; up: boolean }>;
}

/** The event bus as services see it; RabbitMQ in the distributed run, PostgreSQL in the embedded one. */
export interface EventTransport {
  /** Resolves once the event is safely routed to at least one queue; rejects otherwise (unroutable, timeout, no connection). */
  publish(envelope: EventEnvelope): Promise<void>;
  /**
   * Consumes the service's queue (declaring it and its bindings). One subscription per service
   * per process: a second consume() for the same service throws (two would split the queue).
   */
  consume(spec: ConsumerSpec, handler: DeliveryHandler): Promise<Subscription>;
  /** Declares every queue and binding of the topology, so events wait for consumers that have not run yet. */
  declareTopology(topology: readonly TopologyEntry[]): Promise<void>;
  /** Connection state and consumer liveness, synchronously (the relay checks it before each pass). */
  health(): TransportHealth;
  /** The service's dead-lettered messages, oldest first (at most `limit`). */
  listDeadLetters(service: string, limit?: number): Promise<DeadLetter[]>;
  /** How many messages sit in the service's dead letters. */
  deadLetterDepth(service: string): Promise<number>;
  /** Sends dead letters (all, or those with the given ids) back to the service's own queue; returns how many. */
  replayDeadLetters(service: string, ids?: string[]): Promise<number>;
  close(): Promise<void>;
}

/** Thrown by a handler for a message that can never succeed (bad payload): it is dead-lettered without retries. */
export class UnprocessableEventError extends Error {
  override name = 'UnprocessableEventError';
}

/** No queue is bound to the event's name, so the broker would have dropped it. */
export class UnroutableEventError extends Error {
  override name = 'UnroutableEventError';
}

export const consumerDefaults = { prefetch: 50, maxAttempts: 5, retryDelayMs: 100 } as const;

/**
 * The highest maxAttempts a consumer may ask for. RabbitMQ queues carry a fixed broker-side
 * delivery limit of this value (see rabbitmq-topology), which must stay above our own count.
 */
export const MAX_ATTEMPTS_LIMIT = 20;

/** Checks a consumer spec and that the service has no other subscription in this process. */
export function checkConsumerSpec(spec: ConsumerSpec, subscribed: Iterable<string>): void {
  if ([...subscribed].includes(spec.service)) {
    throw new Error(`${spec.service} already has a subscription in this process: one per service (merge the handlers into one subscribe())`);
  }
  const maxAttempts = spec.maxAttempts ?? consumerDefaults.maxAttempts;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
    throw new Error(`maxAttempts must be 1..${MAX_ATTEMPTS_LIMIT}, got ${maxAttempts}`);
  }
}

export function retryDelay(spec: ConsumerSpec, attempt: number): number {
  return Math.min((spec.retryDelayMs ?? consumerDefaults.retryDelayMs) * 2 ** (attempt - 1), 5_000);
}

/** The wire form of an envelope, the same on both transports. */
export function encodeEnvelope(envelope: EventEnvelope): string {
  return JSON.stringify(envelope);
}

/** Parses wire content; a malformed envelope is unprocessable. */
export function decodeEnvelope(content: string): EventEnvelope {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    throw new UnprocessableEventError('content is not JSON');
  }
  const parsed = eventEnvelopeSchema.safeParse(raw);
  if (!parsed.success) throw new UnprocessableEventError(`not an event envelope: ${parsed.error.message}`);
  return parsed.data as EventEnvelope;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

export type DeliveryOutcome = { kind: 'ack' } | { kind: 'retry' } | { kind: 'dead'; reason: string };

/** Decodes and handles one delivery and says what the transport must do with it; never throws. */
export async function runDelivery(
  content: string,
  attempt: number,
  spec: ConsumerSpec,
  handler: DeliveryHandler,
): Promise<DeliveryOutcome> {
  try {
    await handler({ envelope: decodeEnvelope(content), attempt });
    return { kind: 'ack' };
  } catch (error) {
    const maxAttempts = spec.maxAttempts ?? consumerDefaults.maxAttempts;
    if (error instanceof UnprocessableEventError || attempt >= maxAttempts) {
      return { kind: 'dead', reason: errorMessage(error) };
    }
    return { kind: 'retry' };
  }
}

/** The envelope id and name of wire content, as far as they can be read (for dead-letter listings). */
export function describeContent(content: string, fallbackId: string): { id: string; name: string } {
  try {
    const raw = JSON.parse(content) as { id?: unknown; name?: unknown };
    return {
      id: typeof raw.id === 'string' ? raw.id : fallbackId,
      name: typeof raw.name === 'string' ? raw.name : 'unknown',
    };
  } catch {
    return { id: fallbackId, name: 'unknown' };
  }
}

/**
 * The regular expression (source, anchored) of a topic binding, as on a RabbitMQ topic exchange:
 * `*` is exactly one dot-separated word, `#` zero or more. Match it against `.${name}` (every
 * word brings its dot). The same source works in JavaScript and in PostgreSQL (`~`).
 */
export function topicPattern(binding: string): string {
  const source = binding
    .split('.')
    .map((word) => (word === '*' ? '\\.[^.]+' : word === '#' ? '(?:\\.[^.]+)*' : `\\.${word.replace(/[^\w-]/g, '\\$&')}`))
    .join('');
  return `^${source}$`;
}

export function topicMatcher(binding: string): (name: string) => boolean {
  const pattern = new RegExp(topicPattern(binding));
  return (name) => pattern.test(`.${name}`);
}
