/**
 * Calls to outside systems (a shop update, a chat message) in two steps: the consumer's
 * transaction records the intent; after commit a runner executes it, idempotent by its key,
 * with bounded retries, ending in `failed` where an operator can list and retry it.
 * No outside call ever runs inside a database transaction.
 */
import { quoteSchema, type SqlClient } from './sql';
import { errorMessage } from './transport';
import { Poller } from './poller';

export interface OutsideEffectContext {
  /** `<event id>:<kind>`: pass it to the outside system as its idempotency key where it has one. */
  idempotencyKey: string;
  attempt: number;
}

/** A kind of outside effect and the code that performs it (throw to retry). */
export interface OutsideEffect<P = unknown> {
  kind: string;
  execute(payload: P, context: OutsideEffectContext): Promise<void>;
}

export function outsideEffect<P>(kind: string, execute: (payload: P, context: OutsideEffectContext) => Promise<void>): OutsideEffect<P> {
  return { kind, execute };
}

export interface OutsideEffectsOptions {
  db: SqlClient;
  /** The service's schema, where its outside_effects table lives. */
  schema: string;
  effects: OutsideEffect<never>[];
  /** Executions before an effect is `failed`. Default 5. */
  maxAttempts?: number;
  /** Back-off after a failed execution: base * 2^(attempts-1), capped at max. Defaults 1 s, 5 min. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A claimed effect is invisible to other runners this long (an execution must finish within it). Default 60 s. */
  leaseMs?: number;
  pollIntervalMs?: number;
  batchSize?: number;
  log?: (message: string, detail?: Record<string, unknown>) => void;
}

export const outsideEffectDefaults = { maxAttempts: 5, retryBaseMs: 1_000, retryMaxMs: 300_000, leaseMs: 60_000, pollIntervalMs: 1_000, batchSize: 20 } as const;

export interface FailedOutsideEffect {
  idempotencyKey: string;
  kind: string;
  attempts: number;
  lastError: string | null;
  payload: unknown;
}

interface EffectRow {
  idempotency_key: string;
  kind: string;
  payload: unknown;
  attempts: number;
}

/**
 * The service's outside effects. Usage in a consumer:
 *   onEvent(def, async (tx, event) => { await store.apply(tx, ...); await effects.record(tx, event.id, shopUpdate, payload); })
 * with `afterCommit: () => effects.nudge()` on the subscription, and `effects.start()` at start-up.
 */
export class OutsideEffects {
  private readonly table: string;
  private readonly byKind = new Map<string, OutsideEffect<never>>();
  private readonly settings: Required<Omit<OutsideEffectsOptions, 'log'>> & Pick<OutsideEffectsOptions, 'log'>;
  private readonly poller: Poller;

  constructor(options: OutsideEffectsOptions) {
    this.settings = { ...outsideEffectDefaults, ...options };
    this.table = `${quoteSchema(options.schema)}.outside_effects`;
    this.register(options.effects);
    this.poller = new Poller({
      pass: async () => (await this.runDue()) === this.settings.batchSize,
      intervalMs: this.settings.pollIntervalMs,
      onError: (error) => this.settings.log?.('outside effect pass failed', { error: errorMessage(error) }),
    });
  }

  /** Adds executors (a service's, once built with what they need); a kind is registered once. */
  register(effects: OutsideEffect<never>[]): void {
    for (const effect of effects) {
      if (this.byKind.has(effect.kind)) throw new Error(`outside effect "${effect.kind}" is registered twice`);
      this.byKind.set(effect.kind, effect);
    }
  }

  /**
   * Records the intent inside the caller's transaction (an inbox handler's). The key is
   * `<eventId>:<kind>`, so a duplicate event records nothing new; returns whether it was new.
   */
  async record<P>(tx: SqlClient, eventId: string, effect: OutsideEffect<P>, payload: P): Promise<boolean> {
    if (!this.byKind.has(effect.kind)) throw new Error(`outside effect "${effect.kind}" is not registered`);
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO ${this.table} (idempotency_key, kind, payload) VALUES ($1, $2, $3::jsonb) ON CONFLICT (idempotency_key) DO NOTHING`,
      `${eventId}:${effect.kind}`,
      effect.kind,
      JSON.stringify(payload),
    );
    return inserted > 0;
  }

  start(): void {
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Executes due effects now (call after the recording transaction committed). */
  nudge(): void {
    this.poller.nudge();
  }

  /** One pass: claims due effects (leased, attempt counted at claim), executes them, records the outcome. */
  async runDue(): Promise<number> {
    const rows = await this.settings.db.$queryRawUnsafe<EffectRow[]>(
      `UPDATE ${this.table} SET attempts = attempts + 1, next_attempt_at = now() + $2::integer * interval '1 millisecond', updated_at = now()
       WHERE idempotency_key IN (
         SELECT idempotency_key FROM ${this.table}
         WHERE status = 'pending' AND next_attempt_at <= now() AND kind IN (SELECT jsonb_array_elements_text($3::jsonb))
         ORDER BY next_attempt_at LIMIT $1::integer FOR UPDATE SKIP LOCKED)
       RETURNING idempotency_key, kind, payload, attempts`,
      this.settings.batchSize,
      this.settings.leaseMs,
      JSON.stringify([...this.byKind.keys()]), // only kinds this runner can execute
    );
    await Promise.all(rows.map((row) => this.execute(row)));
    return rows.length;
  }

  private async execute(row: EffectRow): Promise<void> {
    try {
      const effect = this.byKind.get(row.kind);
      if (!effect) throw new Error(`no executor registered for "${row.kind}"`);
      await effect.execute(row.payload as never, { idempotencyKey: row.idempotency_key, attempt: row.attempts });
      await this.settings.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = 'done', last_error = NULL, done_at = now(), updated_at = now() WHERE idempotency_key = $1`,
        row.idempotency_key,
      );
    } catch (error) {
      const failed = row.attempts >= this.settings.maxAttempts;
      const backoff = Math.min(this.settings.retryBaseMs * 2 ** (row.attempts - 1), this.settings.retryMaxMs);
      this.settings.log?.('outside effect failed', { key: row.idempotency_key, attempts: row.attempts, failed, error: errorMessage(error) });
      await this.settings.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = $2, last_error = $3, next_attempt_at = now() + $4::integer * interval '1 millisecond', updated_at = now()
         WHERE idempotency_key = $1`,
        row.idempotency_key,
        failed ? 'failed' : 'pending',
        errorMessage(error),
        failed ? 0 : Math.round(backoff),
      );
    }
  }

  /** Effects that used up their attempts, oldest first (the dead-letter place of outside calls). */
  async listFailed(limit = 100): Promise<FailedOutsideEffect[]> {
    return this.settings.db.$queryRawUnsafe<FailedOutsideEffect[]>(
      `SELECT idempotency_key AS "idempotencyKey", kind, attempts, last_error AS "lastError", payload
       FROM ${this.table} WHERE status = 'failed' ORDER BY updated_at LIMIT $1::integer`,
      limit,
    );
  }

  /** Gives failed effects (all, or those keys) a fresh set of attempts; returns how many. */
  async retryFailed(keys?: string[]): Promise<number> {
    const retried = await this.settings.db.$executeRawUnsafe(
      `UPDATE ${this.table} SET status = 'pending', attempts = 0, next_attempt_at = now(), updated_at = now()
       WHERE status = 'failed' AND ($1::jsonb IS NULL OR idempotency_key IN (SELECT jsonb_array_elements_text($1::jsonb)))`,
      keys ? JSON.stringify(keys) : null,
    );
    if (retried > 0) this.nudge();
    return retried;
  }
}
