/** The transport contract both buses implement (RabbitMQ; PostgreSQL for the embedded run) and the delivery rules they share. */
import { eventEnvelopeSchema, type EventEnvelope, type TopologyEntry } from '@bo/proto';
import { isTransientError } from '../errors';
import { pause, transientWait } from './transient';

/** One delivery handed to a consumer; `attempt` starts at 1 and grows with every redelivery. */
export interface Delivery {
  envelope: EventEnvelope;
  attempt: number;
}

/**
 * Resolving acks the message. Throwing retries it (up to `maxAttempts`), then parks it in the
 * service's dead letters; throwing an UnprocessableEventError parks it at once. A dependency-down
 * failure (isTransientError: database, cache or broker away) is retried in place and not counted.
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
  /** Pause before a failed message is handed out again; doubles per attempt. Also the first in-place wait after a transient failure. */
  retryDelayMs?: number;
  /**
   * How long a delivery whose handler fails transiently (a dependency is down) is retried in
   * place, held and uncounted, before it is handed back once as an ordinary failed attempt.
   */
  transientRetryMs?: number;
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

export const consumerDefaults = { prefetch: 50, maxAttempts: 5, retryDelayMs: 100, transientRetryMs: 300_000 } as const;

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

/**
 * What the transport does with a delivery: ack it, hand it back as a failed attempt, park it, or
 * (`release`: the consumer is stopping or its channel is gone) put it back untouched and uncounted.
 */
export type DeliveryOutcome = { kind: 'ack' } | { kind: 'retry' } | { kind: 'dead'; reason: string } | { kind: 'release' };

/**
 * Decodes and handles one delivery and says what the transport must do with it; never throws.
 * A transient failure (isTransientError) is retried here, in place, with jittered exponential
 * waits (from retryDelayMs, at most TRANSIENT_RETRY_MAX_WAIT_MS each), for up to
 * `transientRetryMs`, without counting an attempt; past that it counts as one failed attempt.
 * Aborting `signal` (a stopping consumer, a closed channel) ends the waiting at once with `release`.
 */
export async function runDelivery(
  content: string,
  attempt: number,
  spec: ConsumerSpec,
  handler: DeliveryHandler,
  signal?: AbortSignal,
): Promise<DeliveryOutcome> {
  const maxAttempts = spec.maxAttempts ?? consumerDefaults.maxAttempts;
  const giveUpAt = Date.now() + (spec.transientRetryMs ?? consumerDefaults.transientRetryMs);
  let envelope: EventEnvelope;
  try {
    envelope = decodeEnvelope(content);
  } catch (error) {
    return { kind: 'dead', reason: errorMessage(error) };
  }
  for (let held = 0; ; held++) {
    if (signal?.aborted) return { kind: 'release' };
    try {
      await handler({ envelope, attempt });
      return { kind: 'ack' };
    } catch (error) {
      if (error instanceof UnprocessableEventError) return { kind: 'dead', reason: errorMessage(error) };
      const left = giveUpAt - Date.now();
      if (isTransientError(error) && left > 0) {
        if (!(await pause(Math.min(transientWait(spec.retryDelayMs ?? consumerDefaults.retryDelayMs, held), left), signal))) return { kind: 'release' };
        continue;
      }
      return attempt >= maxAttempts ? { kind: 'dead', reason: errorMessage(error) } : { kind: 'retry' };
    }
  }
}

/** The warning a transport logs when it parks a message: what was parked, whose, after how many attempts, and why. */
export function parkedDetail(content: string, fallbackId: string, service: string, attempts: number, reason: string): Record<string, unknown> {
  const { id, name } = describeContent(content, fallbackId);
  return { event: name, id, service, attempts, reason };
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
