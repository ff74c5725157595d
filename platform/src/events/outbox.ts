/**
 * The transactional outbox: events are written in the business transaction (`createOutbox(...).commit`)
 * and published afterwards by the relay, which pauses while the transport is disconnected and
 * gives a row up (`failed`, visible to operators) after a bounded time.
 */
import { createEnvelope, type EventDefinition, type EventEnvelope } from '@bo/proto';
import type { z } from 'zod';
import { currentCorrelationId } from '../logging';
import { StateLog, type LevelLog } from '../state-log';
import { Poller } from './poller';
import { quoteSchema, type SqlClient, type TransactionalDb } from './sql';
import { errorMessage, UnroutableEventError, type EventTransport } from './transport';

/**
 * Writes the event into the service's outbox inside the caller's business transaction, so the
 * event exists if and only if the state change committed. The relay publishes it later.
 */
export async function enqueueEvent(tx: SqlClient, schema: string, envelope: EventEnvelope): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO ${quoteSchema(schema)}.outbox_events (id, name, version, payload, correlation_id, occurred_at)
     VALUES ($1::uuid, $2, $3::integer, $4::jsonb, $5, $6::timestamptz)`,
    envelope.id,
    envelope.name,
    envelope.version,
    JSON.stringify(envelope.payload),
    envelope.correlationId,
    envelope.occurredAt,
  );
}

/** Emits an event from inside `commit`: validated now, written to the outbox before the commit. */
export type Emit = <S extends z.ZodType>(definition: EventDefinition<S>, payload: z.infer<S>) => EventEnvelope<z.infer<S>>;

export interface Outbox<Tx extends SqlClient> {
  /**
   * Runs `work` in one transaction of the service's database: its store calls (with `tx`) and the
   * events it emits commit together or not at all; after the commit the relay is nudged. Events
   * carry the current correlation id. Stores take `tx` and never open a transaction themselves.
   */
  commit<R>(work: (tx: Tx, emit: Emit) => Promise<R>): Promise<R>;
  /** Writes an event in a transaction you already hold (e.g. an inbox handler's); nudge() after it committed. */
  enqueue<S extends z.ZodType>(tx: SqlClient, definition: EventDefinition<S>, payload: z.infer<S>): Promise<EventEnvelope<z.infer<S>>>;
  /** Tells the relay to publish now. */
  nudge(): void;
}

export function createOutbox<Tx extends SqlClient>(options: { db: TransactionalDb<Tx>; schema: string; relay?: { nudge(): void } }): Outbox<Tx> {
  const nudge = () => options.relay?.nudge();
  const enqueue: Outbox<Tx>['enqueue'] = async (tx, definition, payload) => {
    const envelope = createEnvelope(definition, payload, currentCorrelationId());
    await enqueueEvent(tx, options.schema, envelope);
    return envelope;
  };
  return {
    enqueue,
    nudge,
    async commit(work) {
      let emitted = 0;
      const result = await options.db.$transaction(async (tx) => {
        const envelopes: EventEnvelope[] = [];
        const emit: Emit = (definition, payload) => {
          const envelope = createEnvelope(definition, payload, currentCorrelationId());
          envelopes.push(envelope);
          return envelope;
        };
        const value = await work(tx, emit);
        for (const envelope of envelopes) await enqueueEvent(tx, options.schema, envelope);
        emitted = envelopes.length;
        return value;
      });
      if (emitted > 0) nudge();
      return result;
    },
  };
}

export interface OutboxRelayOptions {
  db: SqlClient;
  schema: string;
  transport: EventTransport;
  /** Rows claimed per pass. */
  batchSize?: number;
  /** How often the relay looks for due rows when nobody nudges it (also how soon it notices the broker is back). */
  pollIntervalMs?: number;
  /** A claimed row is invisible to other relays this long; if this one dies, another takes it over. */
  leaseMs?: number;
  /** Back-off after a failed publish: base * 2^(attempts-1), capped at max. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A row still unpublished this long after it was written (or retried) becomes `failed`. Default 24 h. */
  failAfterMs?: number;
  /**
   * Events that are news, not work (a run's progress): published for whoever binds a queue to
   * them, and sent when nobody does, where any other event waits, unroutable, for its consumer.
   */
  mayGoUnheard?: (name: string) => boolean;
  /** A lasting failure is logged when it starts (warn) and ends (info), its repeats at debug (StateLog). */
  log?: LevelLog;
}

export const outboxDefaults = { batchSize: 50, pollIntervalMs: 1_000, leaseMs: 30_000, retryBaseMs: 500, retryMaxMs: 60_000, failAfterMs: 24 * 3600_000 } as const;

interface OutboxRow {
  id: string;
  name: string;
  version: number;
  payload: string;
  correlation_id: string | null;
  occurred_at: string;
  attempts: number;
}

/**
 * Publishes outbox rows: claims due rows (`FOR UPDATE SKIP LOCKED`, so relays of several
 * replicas never take the same row), publishes them through the transport with confirms, marks
 * them sent; a failed row gets attempts + 1, its error and a back-off. While the transport says
 * it is disconnected the relay pauses and charges nothing to the rows. Delivery is at least once
 * (a crash between confirm and "sent" re-publishes); consumers dedupe through the inbox.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly poller: Poller;
  private readonly settings: Required<Omit<OutboxRelayOptions, 'log' | 'mayGoUnheard'>> & Pick<OutboxRelayOptions, 'log' | 'mayGoUnheard'>;
  private pausedSince?: number;
  private readonly passes: StateLog;
  private readonly publishes: StateLog;

  constructor(options: OutboxRelayOptions) {
    this.settings = { ...outboxDefaults, ...options };
    this.table = `${quoteSchema(options.schema)}.outbox_events`;
    const log: LevelLog = (message, detail, level) => this.settings.log?.(message, detail, level);
    this.passes = new StateLog(log, {
      failing: 'the outbox relay cannot read its outbox',
      meanwhile: 'events wait in the outbox and go out once the database answers (nothing to do unless it stays away)',
      recovered: 'the outbox relay reads its outbox again',
      detail: { schema: options.schema },
    });
    this.publishes = new StateLog(log, {
      failing: 'the outbox relay cannot publish',
      meanwhile: 'each event is tried again with back-off, and is listed in the failed outbox if it is still unpublished after a day',
      recovered: 'the outbox relay publishes again',
      detail: { schema: options.schema },
    });
    this.poller = new Poller({
      pass: async () => {
        const claimed = await this.publishDue();
        this.passes.succeeded();
        return claimed === this.settings.batchSize;
      },
      intervalMs: this.settings.pollIntervalMs,
      onError: (error) => this.passes.failed(error),
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Runs a pass now (call it right after committing a transaction that enqueued events). */
  nudge(): void {
    this.poller.nudge();
  }

  /** True while the relay waits for the transport to reconnect. */
  get paused(): boolean {
    return this.pausedSince !== undefined;
  }

  /** One pass: give up expired rows, then (if the transport is connected) claim, publish, record; returns how many rows it claimed. */
  async publishDue(): Promise<number> {
    await this.failExpired();
    if (!this.settings.transport.health().connected) {
      if (this.pausedSince === undefined) this.settings.log?.('outbox relay paused: the event transport is disconnected; events wait in the outbox until it reconnects', { schema: this.settings.schema });
      this.pausedSince ??= Date.now();
      return 0;
    }
    if (this.pausedSince !== undefined) {
      this.settings.log?.('outbox relay resumed', { schema: this.settings.schema, pausedMs: Date.now() - this.pausedSince }, 'info');
      this.pausedSince = undefined;
    }
    const rows = await this.claim();
    const results = await Promise.allSettled(rows.map((row) => this.publish(row)));
    const sent = rows.filter((_, index) => results[index].status === 'fulfilled').map((row) => row.id);
    if (sent.length > 0) {
      await this.settings.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = 'sent', sent_at = now(), last_error = NULL
         WHERE id = ANY(string_to_array($1, ',')::uuid[])`,
        sent.join(','),
      );
    }
    if (sent.length > 0) this.publishes.succeeded();
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected') await this.recordFailure(rows[index], result.reason);
    }
    return rows.length;
  }

  private async publish(row: OutboxRow): Promise<void> {
    try {
      await this.settings.transport.publish(toEnvelope(row));
    } catch (error) {
      if (!(error instanceof UnroutableEventError && this.settings.mayGoUnheard?.(row.name))) throw error;
    }
  }

  /** Due pending rows, oldest first, leased so that no other pass takes them meanwhile. */
  private async claim(): Promise<OutboxRow[]> {
    const rows = await this.settings.db.$queryRawUnsafe<OutboxRow[]>(
      `UPDATE ${this.table} SET next_attempt_at = now() + $2::integer * interval '1 millisecond'
       WHERE id IN (
         SELECT id FROM ${this.table}
         WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY occurred_at LIMIT $1::integer FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id, name, version, payload::text AS payload, correlation_id,
         to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, attempts`,
      this.settings.batchSize,
      this.settings.leaseMs,
    );
    return rows.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  }

  /** A failure while the transport is down is the broker's, not the row's: release it uncharged. */
  private async recordFailure(row: OutboxRow, reason: unknown): Promise<void> {
    const charged = this.settings.transport.health().connected;
    const attempts = charged ? row.attempts + 1 : row.attempts;
    const backoff = charged ? Math.min(this.settings.retryBaseMs * 2 ** (attempts - 1), this.settings.retryMaxMs) : 0;
    this.publishes.failed(reason, { id: row.id, name: row.name, attempts, charged });
    await this.settings.db.$executeRawUnsafe(
      `UPDATE ${this.table} SET attempts = $2::integer, last_error = $3, next_attempt_at = now() + $4::integer * interval '1 millisecond'
       WHERE id = $1::uuid`,
      row.id,
      attempts,
      errorMessage(reason),
      Math.round(backoff),
    );
  }

  private async failExpired(): Promise<void> {
    const failed = await this.settings.db.$executeRawUnsafe(
      `UPDATE ${this.table} SET status = 'failed', failed_at = now()
       WHERE status = 'pending' AND pending_since < now() - $1::bigint * interval '1 millisecond'`,
      this.settings.failAfterMs,
    );
    // Nothing publishes them any more: a person looks (GET /api/admin/events/<service>/failed-outbox) and retries them.
    if (failed > 0) this.settings.log?.('outbox rows failed: unpublished for too long; list them in the failed outbox and retry them once the cause is fixed', { schema: this.settings.schema, failed }, 'error');
  }
}

/** An outbox row that could not be published in time, for operators. */
export interface FailedOutboxRow {
  id: string;
  name: string;
  attempts: number;
  lastError: string | null;
  occurredAt: string;
  failedAt: string;
}

/** The service's failed outbox rows, oldest first. */
export async function listFailedOutbox(db: SqlClient, schema: string, limit = 100): Promise<FailedOutboxRow[]> {
  return db.$queryRawUnsafe<FailedOutboxRow[]>(
    `SELECT id::text AS id, name, attempts, last_error AS "lastError",
       to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt",
       to_char(failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "failedAt"
     FROM ${quoteSchema(schema)}.outbox_events WHERE status = 'failed' ORDER BY occurred_at LIMIT $1::integer`,
    limit,
  );
}

/** Puts failed rows (all, or those ids) back to pending with a fresh deadline; returns how many. */
export async function retryFailedOutbox(db: SqlClient, schema: string, ids?: string[]): Promise<number> {
  return db.$executeRawUnsafe(
    `UPDATE ${quoteSchema(schema)}.outbox_events
     SET status = 'pending', attempts = 0, next_attempt_at = now(), pending_since = now(), failed_at = NULL
     WHERE status = 'failed' AND ($1::text IS NULL OR id = ANY(string_to_array($1, ',')::uuid[]))`,
    ids ? ids.join(',') : null,
  );
}

function toEnvelope(row: OutboxRow): EventEnvelope {
  return {
    id: row.id,
    name: row.name,
    version: Number(row.version),
    occurredAt: row.occurred_at,
    correlationId: row.correlation_id,
    payload: JSON.parse(row.payload),
  };
}
