/**
 * The embedded run's event bus: a durable queue in PostgreSQL (schema `bus`), with the same
 * contract as RabbitMQ. A publish writes one row per bound queue in one INSERT; a consumer takes
 * rows with `FOR UPDATE SKIP LOCKED` inside a claim transaction it holds while the handlers run,
 * and deletes a row only after its handler (and so the inbox transaction) committed. A process
 * killed mid-way leaves its rows locked by a dead connection: PostgreSQL releases them and the
 * next consumer gets them again (the inbox dedupes). Consumers are woken by LISTEN/NOTIFY, with a
 * poll as back-up. Works on PostgreSQL 15-18.
 */
import pg from 'pg';
import type { EventEnvelope, TopologyEntry } from '@bo/proto';
import { heardPool } from '../db/database';
import { StateLog, type LevelLog } from '../state-log';
import { Poller } from './poller';
import { quoteSchema } from './sql';
import {
  checkConsumerSpec,
  consumerDefaults,
  encodeEnvelope,
  parkedDetail,
  retryDelay,
  runDelivery,
  topicPattern,
  UnroutableEventError,
  type ConsumerSpec,
  type DeadLetter,
  type DeliveryHandler,
  type EventTransport,
  type Subscription,
  type TransportHealth,
} from './transport';

export interface PgTransportOptions {
  /** postgres://… of the database that holds the bus (the embedded run's one database). */
  url: string;
  /** Schema of the bus tables. Default `bus`. */
  schema?: string;
  /** Back-up poll when no notification arrives (also how soon a retried message is picked up at the latest). Default 1 s. */
  pollIntervalMs?: number;
  /** Connections for publishing and claiming (a consumer holds one during a pass, publishes take one each). Default 10. */
  poolSize?: number;
  /** A lasting failure is logged when it starts (warn) and ends (info), its repeats at debug (StateLog). */
  log?: LevelLog;
}

interface Consumer {
  spec: ConsumerSpec;
  handler: DeliveryHandler;
  poller: Poller;
  passes: StateLog;
  /** Aborted on stop: in-place retries of transient failures end, their rows stay for later. */
  stopping: AbortController;
}

interface MessageRow {
  id: string;
  content: string;
  attempts: number;
}

const NOTIFY_CHANNEL = 'bus_message';
/** How the bus's connections show in pg_stat_activity. */
const APPLICATION_NAME = 'bo-event-bus';

export class PgTransport implements EventTransport {
  private readonly pool: pg.Pool;
  private readonly s: string;
  private readonly consumers = new Map<string, Consumer>();
  private listener?: pg.Client;
  private connected = true;
  private closed = false;
  private listenerLostAt?: number;
  private readonly log: NonNullable<PgTransportOptions['log']>;

  private constructor(private readonly options: PgTransportOptions) {
    this.s = quoteSchema(options.schema ?? 'bus');
    this.pool = heardPool({ connectionString: options.url, max: options.poolSize ?? 10, application_name: APPLICATION_NAME });
    this.log = options.log ?? (() => {});
  }

  /** Creates the bus tables if needed and starts listening for new messages. */
  static async connect(options: PgTransportOptions): Promise<PgTransport> {
    const transport = new PgTransport(options);
    await transport.createTables();
    await transport.listen();
    return transport;
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    const { rows } = await this.query<{ queue: string }>(
      `WITH inserted AS (
         INSERT INTO ${this.s}.messages (queue, event_id, name, content)
         SELECT DISTINCT queue, $2, $3, $4 FROM ${this.s}.bindings WHERE $1 ~ regex
         RETURNING queue)
       SELECT queue, pg_notify('${NOTIFY_CHANNEL}', queue) FROM inserted`,
      [`.${envelope.name}`, envelope.id, envelope.name, encodeEnvelope(envelope)],
    );
    if (rows.length === 0) throw new UnroutableEventError(`no queue is bound to ${envelope.name}`);
  }

  async consume(spec: ConsumerSpec, handler: DeliveryHandler): Promise<Subscription> {
    checkConsumerSpec(spec, this.consumers.keys());
    await this.declare(spec.service, spec.bindings);
    const consumer: Consumer = {
      spec,
      handler,
      stopping: new AbortController(),
      passes: new StateLog(this.log, {
        failing: 'the bus consumer cannot read its queue',
        meanwhile: 'its events wait in the bus and are handled once the database answers (nothing to do unless it stays away)',
        recovered: 'the bus consumer reads its queue again',
        detail: { service: spec.service },
      }),
      poller: new Poller({
        pass: async () => {
          const more = await this.deliverDue(consumer);
          consumer.passes.succeeded();
          return more;
        },
        intervalMs: this.options.pollIntervalMs ?? 1_000,
        onError: (error) => consumer.passes.failed(error),
      }),
    };
    this.consumers.set(spec.service, consumer);
    consumer.poller.start();
    return {
      stop: async () => {
        if (this.consumers.get(spec.service) === consumer) this.consumers.delete(spec.service);
        consumer.stopping.abort();
        await consumer.poller.stop();
      },
    };
  }

  async declareTopology(topology: readonly TopologyEntry[]): Promise<void> {
    for (const entry of topology) await this.declare(entry.consumer, entry.events);
  }

  health(): TransportHealth {
    return {
      connected: this.connected && !this.closed,
      consumers: [...this.consumers.values()].map((consumer) => ({ service: consumer.spec.service, up: this.connected && consumer.poller.isRunning })),
    };
  }

  async listDeadLetters(service: string, limit = 100): Promise<DeadLetter[]> {
    const { rows } = await this.query<DeadLetter>(
      `SELECT event_id AS id, name, reason, attempts, to_char(dead_lettered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "deadLetteredAt", content
       FROM ${this.s}.dead_letters WHERE queue = $1 ORDER BY id LIMIT $2`,
      [service, limit],
    );
    return rows;
  }

  async deadLetterDepth(service: string): Promise<number> {
    const { rows } = await this.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${this.s}.dead_letters WHERE queue = $1`, [service]);
    return rows[0].count;
  }

  /** Moves dead letters back into the service's own queue (other consumers already have the event). */
  async replayDeadLetters(service: string, ids?: string[]): Promise<number> {
    const { rows } = await this.query<{ queue: string }>(
      `WITH moved AS (
         DELETE FROM ${this.s}.dead_letters WHERE queue = $1 AND ($2::text[] IS NULL OR event_id = ANY($2::text[]))
         RETURNING queue, event_id, name, content, id),
       inserted AS (
         INSERT INTO ${this.s}.messages (queue, event_id, name, content) SELECT queue, event_id, name, content FROM moved ORDER BY id
         RETURNING queue)
       SELECT queue FROM inserted`,
      [service, ids ?? null],
    );
    if (rows.length > 0) this.consumers.get(service)?.poller.nudge();
    return rows.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.consumers.values()].map((consumer) => {
        consumer.stopping.abort();
        return consumer.poller.stop();
      }),
    );
    this.consumers.clear();
    await this.listener?.end().catch(() => {});
    await this.pool.end();
  }

  /** The service's queue and its bindings; a binding is stored with its topic pattern as a regex. */
  private async declare(queue: string, bindings: readonly string[]): Promise<void> {
    if (bindings.length === 0) return;
    await this.query(
      `INSERT INTO ${this.s}.bindings (queue, pattern, regex)
       SELECT $1, pattern, regex FROM unnest($2::text[], $3::text[]) AS b(pattern, regex) ON CONFLICT DO NOTHING`,
      [queue, [...bindings], bindings.map(topicPattern)],
    );
  }

  /**
   * One pass of a consumer: claim due messages in a transaction held while the handlers run,
   * then delete the handled ones, reschedule the failed ones and park the dead ones, and commit.
   * Released rows (the consumer is stopping) are left as they were.
   * Returns true when a full batch was taken (more may be due).
   */
  private async deliverDue(consumer: Consumer): Promise<boolean> {
    const { spec, handler } = consumer;
    const prefetch = spec.prefetch ?? consumerDefaults.prefetch;
    const client = await this.connect();
    let failed = false;
    try {
      // Losing this commit in a crash only means a redelivery (the inbox dedupes), so skip its fsync.
      await client.query('BEGIN; SET LOCAL synchronous_commit = off');
      const { rows } = await client.query<MessageRow>(
        `SELECT id::text AS id, content, attempts FROM ${this.s}.messages
         WHERE queue = $1 AND available_at <= now() ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [spec.service, prefetch],
      );
      const outcomes = await Promise.all(rows.map((row) => runDelivery(row.content, row.attempts + 1, spec, handler, consumer.stopping.signal)));
      let nextRetryMs: number | undefined;
      for (const [index, outcome] of outcomes.entries()) {
        const row = rows[index];
        const attempt = row.attempts + 1;
        if (outcome.kind === 'release') continue;
        if (outcome.kind === 'retry') {
          const delay = retryDelay(spec, attempt);
          nextRetryMs = Math.min(nextRetryMs ?? delay, delay);
          await client.query(
            `UPDATE ${this.s}.messages SET attempts = $2, available_at = now() + $3::integer * interval '1 millisecond' WHERE id = $1`,
            [row.id, attempt, delay],
          );
          continue;
        }
        if (outcome.kind === 'dead') {
          await client.query(
            `INSERT INTO ${this.s}.dead_letters (queue, event_id, name, content, reason, attempts)
             SELECT queue, event_id, name, content, $2, $3 FROM ${this.s}.messages WHERE id = $1`,
            [row.id, outcome.reason, attempt],
          );
          this.log('event parked in dead letters', parkedDetail(row.content, row.id, spec.service, attempt, outcome.reason), 'error');
        }
        await client.query(`DELETE FROM ${this.s}.messages WHERE id = $1`, [row.id]);
      }
      await client.query('COMMIT');
      this.connected = true;
      if (nextRetryMs !== undefined) consumer.poller.nudgeIn(nextRetryMs);
      return rows.length === prefetch;
    } catch (error) {
      failed = true;
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release(failed);
    }
  }

  private async connect(): Promise<pg.PoolClient> {
    try {
      const client = await this.pool.connect();
      // A checked-out client whose connection dies emits 'error' besides failing its query; unheard, that would crash the process.
      if (client.listenerCount('error') === 0) client.on('error', () => {});
      this.connected = true;
      return client;
    } catch (error) {
      this.connected = false;
      throw error;
    }
  }

  private async query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const client = await this.connect();
    try {
      return await client.query<R>(sql, values);
    } finally {
      client.release();
    }
  }

  /** One connection LISTENs and nudges the consumer of the queue named in each notification; it reconnects when lost. */
  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, application_name: APPLICATION_NAME });
    client.on('notification', (message) => this.consumers.get(message.payload ?? '')?.poller.nudge());
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    client.on('end', () => {
      if (this.closed) return;
      this.connected = false;
      this.listenerLostAt = Date.now();
      this.log('bus listener lost; polling until it reconnects (events arrive up to a second later meanwhile)');
      this.relisten();
    });
    this.listener = client;
    this.connected = true;
    if (this.listenerLostAt !== undefined) this.log('bus listener back', { lostForMs: Date.now() - this.listenerLostAt }, 'info');
    this.listenerLostAt = undefined;
    for (const consumer of this.consumers.values()) consumer.poller.nudge(); // notifications missed meanwhile
  }

  /** Tries to LISTEN again every second until it works (the poll keeps consumers going meanwhile). */
  private relisten(): void {
    setTimeout(() => {
      if (this.closed) return;
      this.listen().catch(() => this.relisten());
    }, 1_000).unref();
  }

  private async createTables(): Promise<void> {
    const client = await this.connect();
    try {
      await client.query('BEGIN');
      // Several processes may start at once: one creates, the others wait and find the tables.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('bo-event-bus-setup'))`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.s}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.s}.bindings (
        queue text NOT NULL, pattern text NOT NULL, regex text NOT NULL, PRIMARY KEY (queue, pattern))`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.s}.messages (
        id bigserial PRIMARY KEY, queue text NOT NULL, event_id text NOT NULL, name text NOT NULL, content text NOT NULL,
        attempts integer NOT NULL DEFAULT 0, available_at timestamptz NOT NULL DEFAULT now(), published_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE INDEX IF NOT EXISTS messages_due ON ${this.s}.messages (queue, available_at, id)`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${this.s}.dead_letters (
        id bigserial PRIMARY KEY, queue text NOT NULL, event_id text NOT NULL, name text NOT NULL, content text NOT NULL,
        reason text NOT NULL, attempts integer NOT NULL, dead_lettered_at timestamptz NOT NULL DEFAULT now())`);
      await client.query(`CREATE INDEX IF NOT EXISTS dead_letters_queue ON ${this.s}.dead_letters (queue, id)`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
}
