/**
 * Calls to outside systems (a shop update, a chat message) in two steps: the consumer's
 * transaction records the intent; after commit a runner executes it, idempotent by its key,
 * with bounded retries, ending in `failed` where an operator can list and retry it.
 * No outside call ever runs inside a database transaction.
 */
import { isTransientError } from '../errors';
import { StateLog, type LevelLog } from '../state-log';
import { quoteSchema, type SqlClient, type TransactionalDb } from './sql';
import { errorMessage } from './transport';
import { Poller } from './poller';
import { pause, TRANSIENT_RETRY_MAX_WAIT_MS, transientWait } from './transient';

export interface OutsideEffectContext {
  /** `<event id>:<kind>`: pass it to the outside system as its idempotency key where it has one. */
  idempotencyKey: string;
  attempt: number;
  /** Aborted at the effect's deadline: pass it to every outside call (fetch's `signal`), so none outlives the claim. */
  signal: AbortSignal;
}

/** A kind of outside effect and the code that performs it (throw to retry). */
export interface OutsideEffect<P = unknown, R = unknown> {
  kind: string;
  /** The outside call; what it answers goes to `recordDone`. */
  execute(payload: P, context: OutsideEffectContext): Promise<R>;
  /**
   * What the call's success means in the service's own tables (a delivery marked sent), written in
   * the transaction that marks the effect done, so the two land together once the database takes
   * writes, however long it is away, and the call is never made again because only one landed.
   */
  recordDone?(tx: SqlClient, payload: P, result: R): Promise<void>;
  /**
   * The most one execution may take (its client's per-request timeout times its tries, plus the
   * back-off between them). The runner aborts it then, and claims the effect for longer than
   * that, so no other runner starts the same call while this one may still be making it.
   */
  deadlineMs: number;
}

/** Claims outlast an execution's deadline by this much (the outcome still has to be written). */
export const LEASE_MARGIN_MS = 10_000;

/** `Tx` is the service's transaction client `recordDone` gets (annotate it, as in onEvent). */
export function outsideEffect<P, R = void, Tx extends SqlClient = SqlClient>(
  kind: string,
  execute: (payload: P, context: OutsideEffectContext) => Promise<R>,
  options: { deadlineMs?: number; recordDone?: (tx: Tx, payload: P, result: R) => Promise<void> } = {},
): OutsideEffect<P, R> {
  return { kind, execute, recordDone: options.recordDone as OutsideEffect<P, R>['recordDone'], deadlineMs: options.deadlineMs ?? outsideEffectDefaults.deadlineMs };
}

/** The execution went past its declared deadline and was abandoned (its signal aborted). */
export class EffectDeadlineError extends Error {
  override name = 'EffectDeadlineError';
}

export interface OutsideEffectsOptions {
  db: TransactionalDb;
  /** The service's schema, where its outside_effects table lives. */
  schema: string;
  effects: OutsideEffect<never>[];
  /** Executions before an effect is `failed`. Default 5. */
  maxAttempts?: number;
  /** Back-off after a failed execution: base * 2^(attempts-1), capped at max. Defaults 1 s, 5 min. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A claimed effect is invisible to other runners at least this long; a kind whose deadline needs more gets deadline + LEASE_MARGIN_MS. Default 60 s. */
  leaseMs?: number;
  pollIntervalMs?: number;
  batchSize?: number;
  /** A lasting failure is logged when it starts (warn) and ends (info), its repeats at debug (StateLog). */
  log?: LevelLog;
}

export const outsideEffectDefaults = { maxAttempts: 5, retryBaseMs: 1_000, retryMaxMs: 300_000, leaseMs: 60_000, deadlineMs: 50_000, pollIntervalMs: 1_000, batchSize: 20 } as const;

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
  private readonly byKind = new Map<string, OutsideEffect<never, unknown>>();
  /** Effects this runner is executing or still recording: never claimed again here, whatever their lease says. */
  private readonly inHand = new Set<string>();
  /** Aborted at stop: an outcome still waiting for the database is given up (and logged). */
  private stopping = new AbortController();
  private readonly settings: Required<Omit<OutsideEffectsOptions, 'log'>> & Pick<OutsideEffectsOptions, 'log'>;
  private readonly poller: Poller;
  private readonly log: LevelLog = (message, detail, level) => this.settings.log?.(message, detail, level);
  private readonly passes: StateLog;

  constructor(options: OutsideEffectsOptions) {
    this.settings = { ...outsideEffectDefaults, ...options };
    this.table = `${quoteSchema(options.schema)}.outside_effects`;
    this.register(options.effects);
    this.passes = new StateLog(this.log, {
      failing: 'outside effects cannot be read',
      meanwhile: 'calls to outside systems (messages, shop updates) wait and are made once the database answers (nothing to do unless it stays away)',
      recovered: 'outside effects are read again',
      detail: { schema: options.schema },
    });
    this.poller = new Poller({
      pass: async () => {
        const claimed = await this.runDue();
        this.passes.succeeded();
        return claimed === this.settings.batchSize;
      },
      intervalMs: this.settings.pollIntervalMs,
      onError: (error) => this.passes.failed(error),
    });
  }

  /** Adds executors (a service's, once built with what they need); a kind is registered once. */
  register(effects: OutsideEffect<never, unknown>[]): void {
    for (const effect of effects) {
      if (this.byKind.has(effect.kind)) throw new Error(`outside effect "${effect.kind}" is registered twice`);
      this.byKind.set(effect.kind, effect);
    }
  }

  /**
   * Records the intent inside the caller's transaction (an inbox handler's). The key is
   * `<eventId>:<kind>`, so a duplicate event records nothing new; returns whether it was new.
   */
  async record<P>(tx: SqlClient, eventId: string, effect: OutsideEffect<P, unknown>, payload: P): Promise<boolean> {
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
    this.stopping = new AbortController();
    this.poller.start();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.poller.stop();
  }

  /** Executes due effects now (call after the recording transaction committed). */
  nudge(): void {
    this.poller.nudge();
  }

  /** How long a claim of this kind lasts: the lease setting, or the effect's deadline plus a margin when that is longer. */
  leaseOf(kind: string): number {
    const effect = this.byKind.get(kind);
    return Math.max(this.settings.leaseMs, effect ? effect.deadlineMs + LEASE_MARGIN_MS : 0);
  }

  /** One pass: claims due effects (leased for their kind's lease, attempt counted at claim), executes them, records the outcome. */
  async runDue(): Promise<number> {
    const leases = Object.fromEntries([...this.byKind.keys()].map((kind) => [kind, this.leaseOf(kind)]));
    const rows = await this.settings.db.$queryRawUnsafe<EffectRow[]>(
      `UPDATE ${this.table} SET attempts = attempts + 1, next_attempt_at = now() + ($2::jsonb ->> kind)::integer * interval '1 millisecond', updated_at = now()
       WHERE idempotency_key IN (
         SELECT idempotency_key FROM ${this.table}
         WHERE status = 'pending' AND next_attempt_at <= now() AND kind IN (SELECT jsonb_object_keys($2::jsonb))
           AND idempotency_key <> ALL($3::text[])
         ORDER BY next_attempt_at LIMIT $1::integer FOR UPDATE SKIP LOCKED)
       RETURNING idempotency_key, kind, payload, attempts`,
      this.settings.batchSize,
      JSON.stringify(leases), // only kinds this runner can execute
      [...this.inHand],
    );
    await Promise.all(rows.map((row) => this.execute(row)));
    return rows.length;
  }

  private async execute(row: EffectRow): Promise<void> {
    this.inHand.add(row.idempotency_key);
    try {
      const effect = this.byKind.get(row.kind);
      let write: () => PromiseLike<unknown>;
      try {
        if (!effect) throw new Error(`no executor registered for "${row.kind}"`);
        const result = await runWithDeadline(effect, row);
        write = () =>
          this.settings.db.$transaction(async (tx) => {
            await effect.recordDone?.(tx, row.payload as never, result);
            await tx.$executeRawUnsafe(`UPDATE ${this.table} SET status = 'done', last_error = NULL, done_at = now(), updated_at = now() WHERE idempotency_key = $1`, row.idempotency_key);
          });
      } catch (error) {
        // A dependency of ours that is down (database, another service) is not the effect's failure: not charged, retried soon.
        const charged = !isTransientError(error);
        const failed = charged && row.attempts >= this.settings.maxAttempts;
        const backoff = Math.min(this.settings.retryBaseMs * 2 ** (row.attempts - 1), this.settings.retryMaxMs);
        const delayMs = failed ? 0 : Math.round(charged ? backoff : Math.min(backoff, TRANSIENT_RETRY_MAX_WAIT_MS));
        // Given up: it waits in the failed list for a person. A dependency of ours away: the pass's own line says so.
        const level = failed ? 'error' : charged ? 'warn' : 'debug';
        this.log(failed ? 'outside effect failed for good; retry it from the failed list once the outside system works' : 'outside effect failed', { key: row.idempotency_key, attempts: row.attempts, charged, failed, error: errorMessage(error) }, level);
        write = () =>
          this.settings.db.$executeRawUnsafe(
            `UPDATE ${this.table} SET status = $2, last_error = $3, next_attempt_at = now() + $4::integer * interval '1 millisecond',
               attempts = attempts - $5::integer, updated_at = now()
             WHERE idempotency_key = $1`,
            row.idempotency_key,
            failed ? 'failed' : 'pending',
            errorMessage(error),
            delayMs,
            charged ? 0 : 1,
          );
      }
      // The call has been made: its outcome must land, however long the database is away and
      // whatever the write fails with (a connection cut mid-transaction is not always reported as
      // one), or the call would be made again. Meanwhile this runner holds the effect (inHand);
      // only stopping gives up, and then the effect may run again once its claim ends.
      await this.recordOutcome(row.idempotency_key, write);
    } finally {
      this.inHand.delete(row.idempotency_key);
    }
  }

  /** Writes an outcome until it lands (jittered back-off up to 5 s; logged when it first fails and when it lands), or the runner stops. */
  private async recordOutcome(key: string, write: () => PromiseLike<unknown>): Promise<void> {
    const writes = new StateLog(this.log, {
      failing: 'an outside effect was made but its outcome cannot be written',
      meanwhile: 'it is written again until it lands (the call is not made twice meanwhile)',
      recovered: 'the outside effect outcome is written',
      detail: { key },
    });
    for (let retry = 0; ; retry++) {
      try {
        await write();
        writes.succeeded();
        return;
      } catch (error) {
        writes.failed(error);
        if (!(await pause(transientWait(100, retry), this.stopping.signal))) {
          this.log('outside effect outcome not recorded; it may run again after its claim', { key, error: errorMessage(error) });
          return;
        }
      }
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

/** Executes one claimed effect, abandoning it (its signal aborted) once its deadline passes. */
async function runWithDeadline(effect: OutsideEffect<never, unknown>, row: EffectRow): Promise<unknown> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new EffectDeadlineError(`${row.kind} did not finish within its deadline of ${effect.deadlineMs} ms`);
      controller.abort(error);
      reject(error);
    }, effect.deadlineMs);
  });
  const work = effect.execute(row.payload as never, { idempotencyKey: row.idempotency_key, attempt: row.attempts, signal: controller.signal });
  work.catch(() => {}); // a late failure after the deadline is not unhandled
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
