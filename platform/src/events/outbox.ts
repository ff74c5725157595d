import type { EventEnvelope } from '@bo/proto';
import { quoteSchema, type SqlClient } from './sql';
import { errorMessage, type EventTransport } from './transport';

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

export interface OutboxRelayOptions {
  db: SqlClient;
  schema: string;
  transport: EventTransport;
  /** Rows claimed per pass. */
  batchSize?: number;
  /** How often the relay looks for due rows when nobody nudges it. */
  pollIntervalMs?: number;
  /** A claimed row is invisible to other relays this long; if this one dies, another takes it over. */
  leaseMs?: number;
  /** Back-off after a failed publish: base * 2^(attempts-1), capped at max. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
}

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
 * them sent; a failed row gets attempts + 1, its error and a back-off. Delivery is at least once
 * (a crash between confirm and "sent" re-publishes); consumers dedupe through the inbox.
 */
export class OutboxRelay {
  private readonly table: string;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private started = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.table = `${quoteSchema(options.schema)}.outbox_events`;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.nudge();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a pass now (call it right after committing a transaction that enqueued events). */
  nudge(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.started) this.timer = setTimeout(() => this.nudge(), this.options.pollIntervalMs ?? 1_000);
    });
  }

  /** Passes until nothing due is left (or a nudge arrived mid-pass). */
  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        const batchSize = this.options.batchSize ?? 50;
        if ((await this.publishDue()) === batchSize) this.again = true;
      } catch (error) {
        this.options.log?.('outbox relay pass failed', { schema: this.options.schema, error: errorMessage(error) });
      }
    } while (this.again && this.started);
  }

  /** One pass: claim, publish, record the outcome; returns how many rows it claimed. */
  async publishDue(): Promise<number> {
    const rows = await this.claim();
    const results = await Promise.allSettled(rows.map((row) => this.options.transport.publish(toEnvelope(row))));
    const sent = rows.filter((_, index) => results[index].status === 'fulfilled').map((row) => row.id);
    if (sent.length > 0) {
      await this.options.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = 'sent', sent_at = now(), last_error = NULL
         WHERE id = ANY(string_to_array($1, ',')::uuid[])`,
        sent.join(','),
      );
    }
    for (const [index, result] of results.entries()) {
      if (result.status === 'rejected') await this.recordFailure(rows[index], result.reason);
    }
    return rows.length;
  }

  /** Due pending rows, oldest first, leased so that no other pass takes them meanwhile. */
  private async claim(): Promise<OutboxRow[]> {
    const rows = await this.options.db.$queryRawUnsafe<OutboxRow[]>(
      `UPDATE ${this.table} SET next_attempt_at = now() + $2::integer * interval '1 millisecond'
       WHERE id IN (
         SELECT id FROM ${this.table}
         WHERE status = 'pending' AND next_attempt_at <= now()
         ORDER BY occurred_at LIMIT $1::integer FOR UPDATE SKIP LOCKED)
       RETURNING id::text AS id, name, version, payload::text AS payload, correlation_id,
         to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, attempts`,
      this.options.batchSize ?? 50,
      this.options.leaseMs ?? 30_000,
    );
    return rows.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  }

  private async recordFailure(row: OutboxRow, reason: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const backoff = Math.min((this.options.retryBaseMs ?? 500) * 2 ** (attempts - 1), this.options.retryMaxMs ?? 60_000);
    this.options.log?.('outbox publish failed', { id: row.id, name: row.name, attempts, error: errorMessage(reason) });
    await this.options.db.$executeRawUnsafe(
      `UPDATE ${this.table} SET attempts = $2::integer, last_error = $3, next_attempt_at = now() + $4::integer * interval '1 millisecond'
       WHERE id = $1::uuid`,
      row.id,
      attempts,
      errorMessage(reason),
      Math.round(backoff),
    );
  }
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
