/** The distributed run's event bus: RabbitMQ through amqplib, with confirms, recovery of connection and consumers, and dead letters. */
import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Options } from 'amqplib';
import type { EventEnvelope, TopologyEntry } from '@bo/proto';
import {
  checkConsumerSpec,
  consumerDefaults,
  encodeEnvelope,
  errorMessage,
  parkedDetail,
  retryDelay,
  runDelivery,
  UnroutableEventError,
  type ConsumerSpec,
  type DeadLetter,
  type DeliveryHandler,
  type EventTransport,
  type Subscription,
  type TransportHealth,
} from './transport';
import {
  DEAD_LETTER_EXCHANGE,
  deadHeaders,
  deadLetterQueue,
  declareExchanges,
  declareServiceQueues,
  EVENTS_EXCHANGE,
  freshProperties,
  takeDeadLetters,
  toDeadLetter,
} from './rabbitmq-topology';
import { StateLog, type LevelLog } from '../state-log';


export interface RabbitMqTransportOptions {
  /** amqp://user:pass@host:port/vhost; `heartbeat=10` is added unless the URL sets one. */
  url: string;
  /** amqplib never calls back when the connection dies mid-publish; give up after this (also the wait for a connection). */
  publishTimeoutMs?: number;
  reconnectMinDelayMs?: number;
  /** Reconnect back-off bounds. Defaults 100 ms and 2 s (the broker is retried at least every 2 s, so events flow soon after it returns). */
  reconnectMaxDelayMs?: number;
  /** First pause before a consumer whose channel the broker closed (or whose queue was deleted) starts again; doubles up to 5 s. Default 500 ms. */
  consumerRestartDelayMs?: number;
  /** A lasting failure is logged when it starts (warn) and ends (info), its repeats at debug (StateLog). */
  log?: LevelLog;
}

interface Consumer {
  spec: ConsumerSpec;
  handler: DeliveryHandler;
  channel?: Channel;
  /** Aborted on stop: in-place retries end and their messages go back unacked. */
  stopping: AbortController;
  tag?: string;
  inFlight: Set<Promise<void>>;
  stopped: boolean;
  starting: boolean;
  restartDelayMs?: number;
}

interface PendingPublish {
  returned: boolean;
  reject(error: Error): void;
}

const PUBLISH_SEQ_HEADER = 'x-publish-seq';

/**
 * Events over RabbitMQ (amqplib), with what amqplib leaves out: Nagle off (quorum-queue round
 * trips drop from ~44 ms to ~1 ms), 10 s heartbeats, confirms + `mandatory` so "sent" means "in a
 * queue", a publish timeout, and recovery — reconnect with back-off, re-declare topology and
 * resume every consumer. Publishes while disconnected wait for the connection within the timeout.
 */
export class RabbitMqTransport implements EventTransport {
  private connection?: ChannelModel;
  private publishChannel?: ConfirmChannel;
  private connected!: Promise<void>;
  private markConnected!: () => void;
  private reconnecting = false;
  private closed = false;
  private publishSeq = 0;
  private readonly pending = new Map<string, PendingPublish>();
  private readonly consumers = new Set<Consumer>();
  private topology: readonly TopologyEntry[] = [];
  private readonly log: LevelLog;
  private readonly timeoutMs: number;
  private readonly reconnects: StateLog;

  private constructor(private readonly options: RabbitMqTransportOptions) {
    this.log = options.log ?? (() => {});
    this.timeoutMs = options.publishTimeoutMs ?? 5_000;
    this.reconnects = new StateLog(this.log, {
      failing: 'rabbitmq cannot be reached',
      meanwhile: 'events wait in the outbox and consumers are paused until it is back (check RabbitMQ and AMQP_URL)',
      recovered: 'rabbitmq reached again',
    });
    this.resetConnected();
  }

  /** Connects (failing if the broker cannot be reached now) and declares the exchanges. */
  static async connect(options: RabbitMqTransportOptions): Promise<RabbitMqTransport> {
    const transport = new RabbitMqTransport(options);
    await transport.open();
    return transport;
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.publishConfirmed(EVENTS_EXCHANGE, envelope.name, encodeEnvelope(envelope), {
      persistent: true,
      messageId: envelope.id,
      type: envelope.name,
      contentType: 'application/json',
      correlationId: envelope.correlationId ?? undefined,
      timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    });
  }

  async consume(spec: ConsumerSpec, handler: DeliveryHandler): Promise<Subscription> {
    checkConsumerSpec(spec, [...this.consumers].map((consumer) => consumer.spec.service));
    const consumer: Consumer = { spec, handler, inFlight: new Set(), stopped: false, starting: false, stopping: new AbortController() };
    this.consumers.add(consumer);
    try {
      if (this.connection) await this.startConsumer(this.connection, consumer);
    } catch (error) {
      consumer.stopped = true;
      this.consumers.delete(consumer);
      throw error;
    }
    return { stop: () => this.stopConsumer(consumer) };
  }

  /** Declares every queue and binding of the topology now and after every reconnect. */
  async declareTopology(topology: readonly TopologyEntry[]): Promise<void> {
    this.topology = topology;
    await this.withChannel((channel) => declareTopologyOn(channel, topology));
  }

  health(): TransportHealth {
    return {
      connected: this.connection !== undefined,
      consumers: [...this.consumers].map((consumer) => ({ service: consumer.spec.service, up: consumer.channel !== undefined })),
    };
  }

  /** 0 for a service that has no queue (it consumes nothing), rather than the broker's 404. */
  async deadLetterDepth(service: string): Promise<number> {
    return (await this.deadLetterCount(service)) ?? 0;
  }

  async listDeadLetters(service: string, limit = 100): Promise<DeadLetter[]> {
    if ((await this.deadLetterCount(service)) === undefined) return [];
    return this.withChannel(async (channel) => (await takeDeadLetters(channel, service, limit)).map(toDeadLetter));
  }

  async replayDeadLetters(service: string, ids?: string[]): Promise<number> {
    if ((await this.deadLetterCount(service)) === undefined) return 0;
    return this.withChannel(async (channel) => {
      let replayed = 0;
      for (const message of await takeDeadLetters(channel, service, Number.MAX_SAFE_INTEGER)) {
        if (ids && !ids.includes(toDeadLetter(message).id)) continue;
        // Straight to the service's own queue: other consumers already have the event.
        await this.publishConfirmed('', service, message.content.toString(), freshProperties(message.properties));
        channel.ack(message);
        replayed++;
      }
      return replayed;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.consumers].map((consumer) => this.stopConsumer(consumer)));
    await this.connection?.close().catch(() => {});
    this.connectionLost(this.connection);
  }

  private async open(): Promise<void> {
    const url = new URL(this.options.url);
    if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', '10');
    const connection = await amqp.connect(url.toString(), { noDelay: true, timeout: 5_000 });
    // 'error' is always followed by 'close'; only 'close' reconnects, so there is one reconnect.
    connection.on('error', (error) => this.log('rabbitmq connection error', { error: errorMessage(error) }));
    connection.on('close', () => this.connectionLost(connection));
    try {
      const publishChannel = await connection.createConfirmChannel();
      publishChannel.on('error', (error) => this.log('rabbitmq publish channel error', { error: errorMessage(error) }));
      publishChannel.on('return', (message) => this.onReturn(message.properties.headers?.[PUBLISH_SEQ_HEADER]));
      // A channel-level error kills the publish channel only; start over with a fresh connection.
      publishChannel.on('close', () => void connection.close().catch(() => {}));
      await declareExchanges(publishChannel);
      // A queue that refuses its declaration must not take the connection down with it (that
      // would reconnect forever): it is logged, and a consumer whose start failed retries on its own.
      await this.declareTopologyApart(connection);
      for (const consumer of this.consumers) {
        if (consumer.channel) continue;
        await this.startConsumer(connection, consumer).catch((error) =>
          this.log('rabbitmq consumer start failed', { service: consumer.spec.service, error: errorMessage(error) }),
        );
      }
      this.connection = connection;
      this.publishChannel = publishChannel;
      this.markConnected();
      this.log('rabbitmq connected', undefined, 'info');
      this.reconnects.succeeded();
    } catch (error) {
      await connection.close().catch(() => {});
      throw error;
    }
  }

  private connectionLost(connection: ChannelModel | undefined): void {
    if (!connection || connection !== this.connection) return;
    this.connection = undefined;
    this.publishChannel = undefined;
    this.resetConnected();
    for (const [seq, pending] of this.pending) {
      this.pending.delete(seq);
      pending.reject(new Error('rabbitmq connection lost before the publish was confirmed'));
    }
    for (const consumer of this.consumers) consumer.channel = undefined;
    if (!this.closed) void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    let delay = this.options.reconnectMinDelayMs ?? 100;
    while (!this.closed && !this.connection) {
      await sleep(delay);
      if (this.closed) break;
      try {
        await this.open();
      } catch (error) {
        this.reconnects.failed(error, { retryInMs: delay });
        delay = Math.min(delay * 2, this.options.reconnectMaxDelayMs ?? 2_000);
      }
    }
    this.reconnecting = false;
  }

  private resetConnected(): void {
    this.connected = new Promise((resolve) => (this.markConnected = resolve));
    this.connected.catch(() => {});
  }

  /** Publishes with a confirm and `mandatory`; a returned (unroutable) message rejects. */
  private async publishConfirmed(exchange: string, routingKey: string, content: string, options: Options.Publish): Promise<void> {
    const seq = String(++this.publishSeq);
    const what = `publish to ${exchange || 'queue'} ${routingKey}`;
    const confirmed = (async () => {
      await this.whenConnected(what);
      const channel = this.publishChannel;
      if (!channel) throw new Error('rabbitmq connection lost before publishing');
      await new Promise<void>((resolve, reject) => {
        this.pending.set(seq, { returned: false, reject });
        const headers = { ...options.headers, [PUBLISH_SEQ_HEADER]: seq };
        channel.publish(exchange, routingKey, Buffer.from(content), { ...options, headers, mandatory: true }, (error) => {
          const pending = this.pending.get(seq);
          this.pending.delete(seq);
          if (error) reject(error instanceof Error ? error : new Error(String(error)));
          else if (pending?.returned) reject(new UnroutableEventError(`no queue is bound to ${routingKey}`));
          else resolve();
        });
      });
    })();
    try {
      await withTimeout(confirmed, this.timeoutMs, `${what} not confirmed within ${this.timeoutMs} ms`);
    } finally {
      this.pending.delete(seq);
    }
  }

  /** Waits for a live connection, at most the publish timeout (the broker may be away for long). */
  private async whenConnected(what: string): Promise<void> {
    await withTimeout(this.connected, this.timeoutMs, `${what}: no rabbitmq connection within ${this.timeoutMs} ms`);
  }

  /** basic.return arrives before the confirm of the same message. */
  private onReturn(seq: unknown): void {
    const pending = this.pending.get(String(seq));
    if (pending) pending.returned = true;
  }

  private async startConsumer(connection: ChannelModel, consumer: Consumer): Promise<void> {
    if (consumer.starting || consumer.channel || consumer.stopped) return;
    consumer.starting = true;
    try {
      const channel = await connection.createChannel();
      // Deliveries of a closed channel can no longer be acked: their in-place retries stop (the broker redelivers them).
      const channelGone = new AbortController();
      channel.on('error', (error) => this.log('rabbitmq consumer channel error', { service: consumer.spec.service, error: errorMessage(error) }));
      channel.on('close', () => {
        channelGone.abort();
        this.consumerLost(consumer, channel);
      });
      await declareServiceQueues(channel, consumer.spec.service, consumer.spec.bindings);
      await channel.prefetch(consumer.spec.prefetch ?? consumerDefaults.prefetch);
      const { consumerTag } = await channel.consume(
        consumer.spec.service,
        (message) => {
          // null: the broker cancelled us (queue deleted); a fresh channel re-declares the queue.
          if (!message) return void channel.close().catch(() => {});
          const running = this.handle(channel, channelGone.signal, consumer, message).finally(() => consumer.inFlight.delete(running));
          consumer.inFlight.add(running);
        },
        { noAck: false },
      );
      consumer.channel = channel;
      consumer.tag = consumerTag;
      consumer.restartDelayMs = undefined;
      this.log('rabbitmq consumer started', { service: consumer.spec.service }, 'info');
    } finally {
      consumer.starting = false;
    }
  }

  /**
   * The consumer's channel closed (channel error, queue deleted, broker or operator action). While
   * the connection lives, start it again on a fresh channel with back-off; when the connection is
   * gone, reconnecting restarts every consumer.
   */
  private consumerLost(consumer: Consumer, channel: Channel): void {
    if (consumer.channel === channel) consumer.channel = undefined;
    if (consumer.stopped || this.closed) return;
    const delay = consumer.restartDelayMs ?? this.options.consumerRestartDelayMs ?? 500;
    consumer.restartDelayMs = Math.min(delay * 2, 5_000);
    setTimeout(() => {
      const connection = this.connection;
      if (!connection || consumer.channel || consumer.stopped || this.closed) return;
      this.startConsumer(connection, consumer).catch((error) => {
        this.log('rabbitmq consumer restart failed', { service: consumer.spec.service, error: errorMessage(error) });
        // A failed start whose channel never opened fires no close: try again from here.
        if (!consumer.channel && !consumer.starting) this.consumerLost(consumer, channel);
      });
    }, delay).unref();
  }

  /** Acks, retries or parks one delivery, always on the channel it came from. */
  private async handle(channel: Channel, channelGone: AbortSignal, consumer: Consumer, message: ConsumeMessage): Promise<void> {
    const attempt = Number(message.properties.headers?.['x-delivery-count'] ?? 0) + 1;
    const signal = AbortSignal.any([channelGone, consumer.stopping.signal]);
    const outcome = await runDelivery(message.content.toString(), attempt, consumer.spec, consumer.handler, signal);
    // Released: left unacked; closing the channel (stop) or its loss gives it back to the queue.
    if (outcome.kind === 'release') return;
    try {
      if (outcome.kind === 'retry') {
        await sleep(retryDelay(consumer.spec, attempt));
        channel.reject(message, true); // counted in x-delivery-count on 3.10 and 4.x alike
        return;
      }
      if (outcome.kind === 'dead') {
        await this.publishConfirmed(DEAD_LETTER_EXCHANGE, consumer.spec.service, message.content.toString(), freshProperties(message.properties, {
          [deadHeaders.reason]: outcome.reason,
          [deadHeaders.attempts]: attempt,
          [deadHeaders.at]: new Date().toISOString(),
        }));
        this.log('event parked in dead letters', parkedDetail(message.content.toString(), String(message.properties.messageId ?? message.fields.deliveryTag), consumer.spec.service, attempt, outcome.reason), 'error');
      }
      channel.ack(message);
    } catch (error) {
      // The channel is gone (or parking failed): the broker redelivers the message; the inbox dedupes.
      this.log('rabbitmq delivery left unacked', { service: consumer.spec.service, error: errorMessage(error) });
    }
  }

  private async stopConsumer(consumer: Consumer): Promise<void> {
    consumer.stopped = true;
    consumer.stopping.abort();
    this.consumers.delete(consumer);
    const channel = consumer.channel;
    if (channel && consumer.tag) await channel.cancel(consumer.tag).catch(() => {});
    await Promise.all(consumer.inFlight);
    await channel?.close().catch(() => {});
  }

  private async declareTopologyApart(connection: ChannelModel): Promise<void> {
    if (this.topology.length === 0) return;
    const channel = await connection.createChannel();
    channel.on('error', () => {}); // the failure is logged below
    try {
      await declareTopologyOn(channel, this.topology);
    } catch (error) {
      this.log('rabbitmq topology declaration failed', { error: errorMessage(error) });
    } finally {
      await channel.close().catch(() => {});
    }
  }

  /**
   * Messages in the service's dead-letter queue; undefined when it has none: a service that
   * consumes nothing has no queues in the topology (nor a consumer here), so the broker is not asked.
   */
  private async deadLetterCount(service: string): Promise<number | undefined> {
    if (!this.mayHaveQueues(service)) return undefined;
    try {
      return await this.withChannel(async (channel) => (await channel.checkQueue(deadLetterQueue(service))).messageCount, isNotFound);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Whether the service's queues are declared (by the topology or by its consumer); unknown topology: maybe. */
  private mayHaveQueues(service: string): boolean {
    if (this.topology.length === 0) return true;
    return this.topology.some((entry) => entry.consumer === service) || [...this.consumers].some((consumer) => consumer.spec.service === service);
  }

  /** Work on a channel of its own; its failures are the caller's, and those `handled` (an expected 404) are not logged. */
  private async withChannel<T>(work: (channel: Channel) => Promise<T>, handled: (error: unknown) => boolean = () => false): Promise<T> {
    await this.whenConnected('dead-letter access');
    const channel = await this.connection!.createChannel();
    channel.on('error', (error) => {
      if (!handled(error)) this.log('rabbitmq channel error', { error: errorMessage(error) });
    });
    try {
      return await work(channel);
    } finally {
      await channel.close().catch(() => {}); // returns every message not acked
    }
  }
}

async function declareTopologyOn(channel: Channel, topology: readonly TopologyEntry[]): Promise<void> {
  for (const entry of topology) await declareServiceQueues(channel, entry.consumer, entry.events);
}

/** The broker's 404 NOT_FOUND (a queue that does not exist), on the channel's error and the failed call alike. */
const isNotFound = (error: unknown) => (error as { code?: number }).code === 404;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  work.catch(() => {}); // a late failure after the timeout is not unhandled
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
