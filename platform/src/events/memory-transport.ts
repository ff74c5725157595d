/** DEPRECATED in-process transport (messages in memory only); replaced by PgTransport, delete once no launcher uses it. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope, TopologyEntry } from '@bo/proto';
import {
  consumerDefaults,
  describeContent,
  encodeEnvelope,
  retryDelay,
  runDelivery,
  topicMatcher,
  checkConsumerSpec,
  UnroutableEventError,
  type ConsumerSpec,
  type DeadLetter,
  type DeliveryHandler,
  type EventTransport,
  type Subscription,
  type TransportHealth,
} from './transport';

export { topicMatcher };

interface QueuedMessage {
  content: string;
  attempt: number;
}

interface MemoryQueue {
  spec: ConsumerSpec;
  matchers: Array<(name: string) => boolean>;
  messages: QueuedMessage[];
  deadLetters: DeadLetter[];
  handler?: DeliveryHandler;
  inFlight: Set<Promise<void>>;
}

/**
 * The bus inside one process (embedded mode): the same semantics as the RabbitMQ transport —
 * per-service queues that outlive their consumer, async delivery, bounded retries, dead letters.
 * Messages live in memory only; durability comes from the outbox, which re-publishes unsent rows.
 */
export class MemoryTransport implements EventTransport {
  private readonly queues = new Map<string, MemoryQueue>();

  async publish(envelope: EventEnvelope): Promise<void> {
    const content = encodeEnvelope(envelope);
    const targets = [...this.queues.values()].filter((queue) => queue.matchers.some((matches) => matches(envelope.name)));
    if (targets.length === 0) throw new UnroutableEventError(`no queue is bound to ${envelope.name}`);
    for (const queue of targets) {
      queue.messages.push({ content, attempt: 1 });
      this.schedule(queue);
    }
  }

  async consume(spec: ConsumerSpec, handler: DeliveryHandler): Promise<Subscription> {
    checkConsumerSpec(spec, [...this.queues.values()].filter((queue) => queue.handler).map((queue) => queue.spec.service));
    const queue = this.declare(spec);
    queue.handler = handler;
    this.schedule(queue);
    return {
      stop: async () => {
        if (queue.handler === handler) queue.handler = undefined;
        await Promise.all(queue.inFlight);
      },
    };
  }

  async declareTopology(topology: readonly TopologyEntry[]): Promise<void> {
    for (const entry of topology) {
      const existing = this.queues.get(entry.consumer);
      this.declare({ ...existing?.spec, service: entry.consumer, bindings: [...new Set([...(existing?.spec.bindings ?? []), ...entry.events])] });
    }
  }

  health(): TransportHealth {
    return { connected: true, consumers: [...this.queues.values()].filter((queue) => queue.handler).map((queue) => ({ service: queue.spec.service, up: true })) };
  }

  async deadLetterDepth(service: string): Promise<number> {
    return this.queues.get(service)?.deadLetters.length ?? 0;
  }

  async listDeadLetters(service: string, limit = 100): Promise<DeadLetter[]> {
    return (this.queues.get(service)?.deadLetters ?? []).slice(0, limit);
  }

  async replayDeadLetters(service: string, ids?: string[]): Promise<number> {
    const queue = this.queues.get(service);
    if (!queue) return 0;
    const replayed = queue.deadLetters.filter((letter) => !ids || ids.includes(letter.id));
    queue.deadLetters = queue.deadLetters.filter((letter) => !replayed.includes(letter));
    queue.messages.push(...replayed.map((letter) => ({ content: letter.content, attempt: 1 })));
    this.schedule(queue);
    return replayed.length;
  }

  async close(): Promise<void> {
    for (const queue of this.queues.values()) queue.handler = undefined;
    await Promise.all([...this.queues.values()].flatMap((queue) => [...queue.inFlight]));
  }

  private declare(spec: ConsumerSpec): MemoryQueue {
    const existing = this.queues.get(spec.service);
    const queue: MemoryQueue = existing ?? { spec, matchers: [], messages: [], deadLetters: [], inFlight: new Set() };
    queue.spec = spec;
    queue.matchers = spec.bindings.map(topicMatcher);
    this.queues.set(spec.service, queue);
    return queue;
  }

  /** Hands out queued messages asynchronously (like a broker), up to the prefetch. */
  private schedule(queue: MemoryQueue): void {
    setImmediate(() => {
      const prefetch = queue.spec.prefetch ?? consumerDefaults.prefetch;
      while (queue.handler && queue.inFlight.size < prefetch && queue.messages.length > 0) {
        const message = queue.messages.shift()!;
        const running = this.deliver(queue, queue.handler, message).finally(() => {
          queue.inFlight.delete(running);
          this.schedule(queue);
        });
        queue.inFlight.add(running);
      }
    });
  }

  private async deliver(queue: MemoryQueue, handler: DeliveryHandler, message: QueuedMessage): Promise<void> {
    const outcome = await runDelivery(message.content, message.attempt, queue.spec, handler);
    if (outcome.kind === 'retry') {
      await new Promise((resolve) => setTimeout(resolve, retryDelay(queue.spec, message.attempt)));
      queue.messages.unshift({ content: message.content, attempt: message.attempt + 1 });
    } else if (outcome.kind === 'dead') {
      queue.deadLetters.push({
        ...describeContent(message.content, randomUUID()),
        reason: outcome.reason,
        attempts: message.attempt,
        deadLetteredAt: new Date().toISOString(),
        content: message.content,
      });
    }
  }
}
