/**
 * Durable background runs (docs/background-work.md): a unit of work a service owns, stored in its
 * schema, taken by one process at a time under a lease its heartbeat renews. A process that dies
 * leaves its lease to run out; another takes the run up again, and the steps it completed are not
 * done twice. Cancel is seen by the heartbeat and stops the run at its next step.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { finishedRunStatuses, runProgressEventOf, type RunStatus, type RunView, type ServiceName } from '@bo/proto';
import { conflict, isTransientError, notFound } from '../errors';
import type { Outbox, TransactionalDb } from '../events';
import { Poller } from '../events/poller';
import type { SqlClient } from '../events/sql';
import type { Logger } from '../logging';
import { levelLogOf, StateLog } from '../state-log';
import { RunStore, runView, type RunFilter, type RunRow } from './run-store';

export interface ProgressUpdate {
  current?: number;
  /** null: unknown (the bar is indeterminate). */
  total?: number | null;
  /** Named counts, merged into the run's (e.g. `{ updated: 118, failed: 2 }`). */
  counters?: Record<string, number>;
}

/** What a run's code gets. */
export interface RunContext<Input> {
  /** `<service>.<uuid>`. */
  id: string;
  input: Input;
  startedBy: string;
  /** 1 on the first take, more when a run is taken up again after its process died. */
  attempt: number;
  /** Aborted when the run is cancelled or its lease is lost: pass it to long calls. */
  signal: AbortSignal;
  /**
   * Does `work` once per run: a run taken up again gets the stored result of a step it already
   * completed. Checks for cancel before and after. The result must be JSON.
   */
  step<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Records progress (written at most every PROGRESS_EVERY_MS, and at each step and the end). */
  progress(update: ProgressUpdate): void;
  /** The progress so far (what a taken-up run starts from). */
  readonly progressSoFar: { current: number; total: number | null; counters: Record<string, number> };
}

export interface RunKind<Input = unknown, Result = unknown> {
  kind: string;
  /** At most one pending or running run of this kind: a second start joins it. */
  exclusive?: boolean;
  /**
   * What Retry does: `resume` (the default) keeps the completed steps; `restart` forgets them, for
   * work whose first step reads a world that may have moved on since (the sync's plan of prices).
   * A run taken up after its process died always resumes.
   */
  retry?: 'resume' | 'restart';
  /**
   * The input a run of this kind gets when it starts now: the settings it works with, read at the
   * moment it is asked for, so they are part of its record. A schedule's tick, a press
   * (Runs.press) and a Retry take it then; a run never reads them again. (Typed by runKind(); loose
   * here so that any kind is a RunKind<never>.)
   */
  inputNow?: () => Promise<unknown>;
  execute(run: RunContext<Input>): Promise<Result>;
}

export function runKind<Input = Record<string, never>, Result = unknown>(
  kind: string,
  execute: (run: RunContext<Input>) => Promise<Result>,
  options: { exclusive?: boolean; retry?: 'resume' | 'restart'; inputNow?: () => Promise<Input> } = {},
): RunKind<Input, Result> {
  return { kind, execute, ...options };
}

export interface StartOptions {
  /** `admin:<username>`, `schedule:<name>`, `event:<name>` or `system`. */
  startedBy: string;
  schedule?: string;
}

export interface PressOptions<Input> extends StartOptions {
  /** How long the press may wait for an active run started with another input to end (its reply's wait). */
  waitMs: number;
  /** The run's input; by default the kind's inputNow() (or `{}`). */
  input?: Input;
}

export interface RunsOptions {
  service: ServiceName;
  schema: string;
  db: TransactionalDb;
  /**
   * Where progress events go (`<service>.run.progress`), published whether or not anyone listens
   * (the relay's mayGoUnheard). The gateway, which has no bus, has none.
   */
  outbox?: Pick<Outbox<SqlClient>, 'enqueue' | 'nudge'>;
  logger: Logger;
  /** How long a take lasts without a heartbeat (30 s). A dead process's run is taken up after this. */
  leaseMs?: number;
  /** How often a running run renews its lease and looks for a cancel (1 s: cancel lands within 5 s). */
  heartbeatMs?: number;
  /** How often an idle process looks for pending work nobody nudged it about. */
  pollMs?: number;
  /** Runs one process works on at once. */
  concurrency?: number;
  /** Takes before a run that keeps losing its process is failed. */
  maxAttempts?: number;
  /** How long a cancelled run's code may go on before the run is ended as cancelled anyway (10 s). */
  cancelGraceMs?: number;
}

export class RunCancelled extends Error {
  constructor() {
    super('Cancelled');
  }
}

class LeaseLost extends Error {
  constructor(why = 'The run was taken over by another process') {
    super(why);
  }
}

const PROGRESS_EVERY_MS = 500;
/** Inserts an exclusive run's start tries while the active run it would join keeps ending under it. */
const BEGIN_TRIES = 3;
/** How long stop() waits for the runs in progress to reach their next step. */
const STOP_WAIT_MS = 5_000;
/** A run whose code has not stopped this long after its cancel is ended as cancelled anyway (its code is stuck). */
const CANCEL_GRACE_MS = 10_000;
/** Without a renewed lease for this share of it, a run stops itself: another process may take it soon. */
const LEASE_SAFETY = 0.8;

export class Runs {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly store: RunStore;
  private readonly kinds = new Map<string, RunKind<never>>();
  private readonly active = new Map<string, AbortController>();
  private readonly poller: Poller;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly working = new Set<Promise<void>>();
  private stopping = false;
  private takes = 0;

  constructor(private readonly options: RunsOptions) {
    this.store = new RunStore(options.schema);
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? 1_000;
    this.concurrency = options.concurrency ?? 2;
    this.maxAttempts = options.maxAttempts ?? 5;
    const lookups = new StateLog(levelLogOf(options.logger), {
      failing: 'runs cannot be looked for',
      meanwhile: 'background runs wait and start once the database answers (nothing to do unless it stays away)',
      recovered: 'runs are looked for again',
    });
    this.poller = new Poller({
      pass: async () => {
        const took = await this.takeOne();
        lookups.succeeded();
        return took;
      },
      intervalMs: options.pollMs ?? 2_000,
      onError: (error) => lookups.failed(error),
    });
  }

  register(kinds: readonly RunKind<never>[]): void {
    for (const kind of kinds) {
      if (this.kinds.has(kind.kind)) throw new Error(`run kind "${kind.kind}" is registered twice`);
      this.kinds.set(kind.kind, kind);
    }
  }

  start(): void {
    if (this.kinds.size > 0) this.poller.start();
  }

  /**
   * Stops taking runs and aborts the ones in progress: each stops at its next step and hands its
   * run back (pending, the take not counted), so another process takes it up at once. A run whose
   * code does not stop within STOP_WAIT_MS is left behind (its lease runs out), so it cannot hold up
   * a shutdown.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.poller.stop();
    for (const controller of this.active.values()) controller.abort(new LeaseLost('The process is stopping'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.working), new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  nudge(): void {
    this.poller.nudge();
  }

  /**
   * Records a pending run of `kind` (in `tx` when given: the run exists if and only if the caller's
   * change commits; call nudge() after the commit). An exclusive kind with a run already pending
   * or running answers that run, whatever its input: a schedule's tick or an event that finds its
   * work under way. A person's "start now" is press().
   */
  async begin<Input>(kind: RunKind<Input>, input: Input, options: StartOptions, tx?: SqlClient): Promise<{ run: RunView; joined: boolean }> {
    const { row, joined } = await this.beginRow(kind, input, options, tx);
    return { run: runView(this.options.service, row), joined };
  }

  /**
   * Starts a run for someone who asked for it now (a "check now", a "sync now"), with the input as
   * it is now (the kind's settings, read at the press: see RunKind.inputNow). An exclusive kind's
   * active run is joined only when it was started with the same input (`joined: true`); one started
   * with another input (the settings changed since) is not this press's run: the press waits for it
   * to end, up to `waitMs`, and then starts its own (or joins one another press started with the
   * same input meanwhile). Still running after the wait: 409 naming it.
   */
  async press<Input>(kind: RunKind<Input>, options: PressOptions<Input>): Promise<{ run: RunView; joined: boolean }> {
    const input = options.input !== undefined ? options.input : kind.inputNow ? ((await kind.inputNow()) as Input) : ({} as Input);
    const until = Date.now() + options.waitMs;
    for (;;) {
      const { row, joined } = await this.beginRow(kind, input, { startedBy: options.startedBy, schedule: options.schedule });
      const run = runView(this.options.service, row);
      if (!joined || sameInput(row.input, input)) return { run, joined };
      const left = until - Date.now();
      if (left <= 0) {
        throw conflict(`A ${kind.kind} run started with other settings is still ${row.status.replace('_', ' ')}: start it again once it has ended`, { activeRunId: run.id });
      }
      await this.waitFor(row.id, left);
    }
  }

  private async beginRow<Input>(kind: RunKind<Input>, input: Input, options: StartOptions, tx?: SqlClient): Promise<{ row: RunRow; joined: boolean }> {
    if (!tx) {
      const begun = await this.options.db.$transaction((own) => this.beginRow(kind, input, options, own));
      this.options.outbox?.nudge();
      this.nudge();
      return begun;
    }
    // An exclusive run that ends between the insert and the look leaves nothing to join: insert again
    // (each statement sees what committed before it), a few times before saying so.
    for (let tries = 0; tries < BEGIN_TRIES; tries++) {
      const row = await this.store.insert(tx, { id: randomUUID(), kind: kind.kind, input, startedBy: options.startedBy, schedule: options.schedule, exclusiveKey: kind.exclusive ? kind.kind : null });
      if (row) {
        await this.publish(tx, row);
        return { row, joined: false };
      }
      const existing = await this.store.activeWithKey(tx, kind.kind);
      if (existing) return { row: existing, joined: true };
    }
    throw conflict(`A ${kind.kind} run just ended: start it again`);
  }

  async get(id: string): Promise<RunView> {
    const row = await this.store.find(this.options.db, id);
    if (!row) throw notFound('Run not found');
    return runView(this.options.service, row, await this.store.stepsOf(this.options.db, id));
  }

  /** What each completed step of a run returned, by step name (a run's own view of its work). */
  async stepResults(id: string): Promise<Map<string, unknown>> {
    return new Map((await this.store.stepsOf(this.options.db, id)).map((step) => [step.name, step.result]));
  }

  /** The run's current version and view, without its steps (what a stream polls). */
  async peek(id: string): Promise<RunView | null> {
    const row = await this.store.find(this.options.db, id);
    return row ? runView(this.options.service, row) : null;
  }

  async list(filter: RunFilter): Promise<RunView[]> {
    return (await this.store.list(this.options.db, filter)).map((row) => runView(this.options.service, row));
  }

  async cancel(id: string): Promise<RunView> {
    const row = await this.options.db.$transaction(async (tx) => {
      const cancelled = await this.store.requestCancel(tx, id);
      if (cancelled) await this.publish(tx, cancelled);
      return cancelled;
    });
    if (!row) {
      const existing = await this.store.find(this.options.db, id);
      if (!existing) throw notFound('Run not found');
      throw conflict(`The run is ${existing.status.replace('_', ' ')}: only a pending or running run can be cancelled`);
    }
    this.options.outbox?.nudge();
    // Running here: stop it now rather than at the next heartbeat.
    this.active.get(id)?.abort(new RunCancelled());
    // The run as the cancel left it (a process may already be moving it on).
    return runView(this.options.service, row, await this.store.stepsOf(this.options.db, id));
  }

  /**
   * A failed or cancelled run back to pending. A kind whose input is its settings (inputNow) takes
   * them as they are now: a retry is pressed now, like a start.
   */
  async retry(id: string, startedBy: string): Promise<RunView> {
    const before = await this.store.find(this.options.db, id);
    const kind = before ? this.kinds.get(before.kind) : undefined;
    const input = kind?.inputNow ? await kind.inputNow() : undefined;
    const row = await this.options.db
      .$transaction(async (tx) => {
        const found = await this.store.find(tx, id);
        const restart = found ? this.kinds.get(found.kind)?.retry === 'restart' : false;
        const requeued = await this.store.requeue(tx, id, startedBy, restart, input);
        if (requeued) await this.publish(tx, requeued);
        return requeued;
      })
      .catch(async (error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        // One at a time: another run of the kind is pending or running.
        const found = await this.store.find(this.options.db, id);
        const active = found ? await this.store.activeWithKey(this.options.db, found.kind) : null;
        throw conflict(`Another ${found?.kind ?? ''} run is ${active?.status.replace('_', ' ') ?? 'active'}: retry this one once it has ended`, active ? { activeRunId: `${this.options.service}.${active.id}` } : undefined);
      });
    if (!row) {
      const existing = await this.store.find(this.options.db, id);
      if (!existing) throw notFound('Run not found');
      throw conflict(`The run is ${existing.status.replace('_', ' ')}: only a failed or cancelled run can be retried`);
    }
    this.options.outbox?.nudge();
    this.nudge();
    // The run as the retry left it, pending (a process may already have taken it up).
    return runView(this.options.service, row, await this.store.stepsOf(this.options.db, id));
  }

  /** Finished runs older than `days` go, and a schedule's completed runs after a day. */
  async sweep(days: number): Promise<number> {
    return this.store.sweep(this.options.db, new Date(Date.now() - days * 86_400_000), new Date(Date.now() - 86_400_000));
  }

  /** Waits until a run has finished (tests, and a request that answers with the outcome when it is quick). */
  async waitFor(id: string, timeoutMs: number, everyMs = 100): Promise<RunView> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const run = await this.peek(id);
      if (!run) throw notFound('Run not found');
      if (finishedRunStatuses.includes(run.status) || Date.now() >= until) return run;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }

  private async publish(tx: SqlClient, row: RunRow): Promise<void> {
    if (!this.options.outbox) return;
    const { steps: _steps, result: _result, ...view } = runView(this.options.service, row);
    await this.options.outbox.enqueue(tx, runProgressEventOf(this.options.service), { ...view, runId: view.id });
  }

  /** One pass of the poller: takes a run when a slot is free. True when it took one (look again). */
  private async takeOne(): Promise<boolean> {
    if (this.working.size >= this.concurrency) return false;
    // Each take holds the lease under a token of its own, so a process can never mistake another of
    // its takes for this one; a run it is still executing is never claimed again here.
    const token = `${this.owner}:${++this.takes}`;
    const row = await this.options.db.$transaction(async (tx) => {
      const claimed = await this.store.claim(tx, [...this.kinds.keys()], token, this.leaseMs, [...this.active.keys()]);
      if (claimed) await this.publish(tx, claimed);
      return claimed;
    });
    if (!row) return false;
    this.options.outbox?.nudge();
    const work = this.execute(row).finally(() => {
      this.working.delete(work);
      this.nudge();
    });
    this.working.add(work);
    return true;
  }

  private async execute(row: RunRow): Promise<void> {
    const { service, logger } = this.options;
    const { id } = row;
    const token = row.lease_owner!;
    const kind = this.kinds.get(row.kind)!;
    if (row.attempts > this.maxAttempts) {
      await this.end(id, token, 'failed', { error: `Gave up after ${this.maxAttempts} attempts: the process running it stopped each time` }, true);
      return;
    }
    const controller = new AbortController();
    this.active.set(id, controller);
    const beats = new StateLog(levelLogOf(logger), {
      failing: `the ${row.kind} run ${id} cannot renew its lease`,
      meanwhile: 'it goes on, and stops if its lease runs out first (then it is taken up again)',
      recovered: `the ${row.kind} run ${id} renews its lease again`,
      detail: { run: id },
    });
    const lease = new LeaseKeeper({
      renew: () => this.store.heartbeat(this.options.db, id, token, this.leaseMs),
      everyMs: this.heartbeatMs,
      giveUpAfterMs: this.leaseMs * LEASE_SAFETY,
      onLost: (why) => controller.abort(new LeaseLost(why)),
      onCancel: () => controller.abort(new RunCancelled()),
      // The code has not stopped long after its cancel: end the run so its kind is free again.
      onStuck: () => void this.end(id, token, 'cancelled', { error: 'Cancelled; its work had not stopped and may still have been under way' }),
      stuckAfterMs: this.options.cancelGraceMs ?? CANCEL_GRACE_MS,
      warn: (error) => beats.failed(error),
      renewed: () => beats.succeeded(),
    });
    if (row.cancel_requested_at) controller.abort(new RunCancelled());
    const progress = new ProgressWriter(row, (state) => this.writeProgress(id, token, state));
    const throwIfStopped = () => {
      if (controller.signal.aborted) throw controller.signal.reason;
    };
    try {
      const completed = new Map((await this.store.stepsOf(this.options.db, id)).map((step) => [step.name, step.result]));
      const context: RunContext<unknown> = {
        id: `${service}.${id}`,
        input: row.input,
        startedBy: row.started_by,
        attempt: row.attempts,
        signal: controller.signal,
        get progressSoFar() {
          return progress.state;
        },
        progress: (update) => progress.update(update),
        step: async <T>(name: string, work: () => Promise<T>): Promise<T> => {
          throwIfStopped();
          if (completed.has(name)) return completed.get(name) as T;
          const result = JSON.parse(JSON.stringify((await work()) ?? null)) as T;
          // Done is done: kept even when a cancel came meanwhile, so a retry does not do it again.
          await progress.flush();
          if (!(await this.store.saveStep(this.options.db, id, token, name, result))) throw new LeaseLost();
          completed.set(name, result);
          throwIfStopped();
          return result;
        },
      };
      throwIfStopped();
      const result = await kind.execute(context as RunContext<never>);
      await progress.flush();
      throwIfStopped();
      await this.end(id, token, 'completed', { result: result ?? null });
    } catch (error) {
      const reason = controller.signal.aborted ? controller.signal.reason : error;
      await progress.flush().catch(() => undefined);
      if (reason instanceof LeaseLost) {
        if (this.stopping) await this.handBack(id, token);
        logger.info({ run: id, why: reason.message }, 'run left to another process');
      } else if (reason instanceof RunCancelled) {
        await this.end(id, token, 'cancelled', { error: null });
      } else if (isTransientError(reason)) {
        // The database or another dependency is down: the lease runs out and the run is taken up again.
        logger.warn({ err: reason, run: id }, 'run stopped by an outage; it will be taken up again');
      } else {
        logger.warn({ err: reason, run: id, kind: row.kind }, 'run failed');
        await this.end(id, token, 'failed', { error: (reason as Error)?.message ?? String(reason) });
      }
    } finally {
      lease.stop();
      this.active.delete(id);
    }
  }

  /** A run stopped by this process's shutdown goes back to pending at once, the take not counted. */
  private async handBack(id: string, token: string): Promise<void> {
    await this.store.release(this.options.db, id, token).catch((error) => this.options.logger.warn({ err: error, run: id }, 'could not hand a run back; its lease will run out'));
  }

  private async writeProgress(id: string, token: string, state: { current: number; total: number | null; counters: Record<string, number> }): Promise<void> {
    const row = await this.options.db.$transaction(async (tx) => {
      const saved = await this.store.saveProgress(tx, id, token, state);
      if (saved) await this.publish(tx, saved);
      return saved;
    });
    if (!row) throw new LeaseLost();
    this.options.outbox?.nudge();
  }

  private async end(id: string, token: string, status: RunStatus, outcome: { result?: unknown; error?: string | null }, whoever = false): Promise<void> {
    try {
      const row = await this.options.db.$transaction(async (tx) => {
        const ended = whoever ? await this.store.fail(tx, id, outcome.error ?? '') : await this.store.finish(tx, id, token, status, outcome);
        if (ended) await this.publish(tx, ended);
        return ended;
      });
      if (row) this.options.outbox?.nudge();
    } catch (error) {
      // Not recorded (the database is down): the lease runs out and another take finishes it.
      this.options.logger.warn({ err: error, run: id }, 'could not record the end of a run');
    }
  }
}

/** Coalesces a run's progress updates into at most one write every PROGRESS_EVERY_MS. */
class ProgressWriter {
  state: { current: number; total: number | null; counters: Record<string, number> };
  private dirty = false;
  private lastWrite = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(row: RunRow, private readonly write: (state: ProgressWriter['state']) => Promise<void>) {
    this.state = { current: row.current, total: row.total, counters: { ...(row.counters ?? {}) } };
  }

  update(update: ProgressUpdate): void {
    this.state = {
      current: update.current ?? this.state.current,
      total: update.total === undefined ? this.state.total : update.total,
      counters: { ...this.state.counters, ...update.counters },
    };
    this.dirty = true;
    if (this.timer) return;
    const wait = Math.max(0, this.lastWrite + PROGRESS_EVERY_MS - Date.now());
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), wait);
  }

  /** Writes what is not written yet; throws what the last write threw (a lost lease). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    if (this.failure) throw this.failure;
    if (!this.dirty) return;
    this.dirty = false;
    this.lastWrite = Date.now();
    let failed: unknown = null;
    this.writing = this.write(this.state).catch((error) => {
      failed = error;
      // A lost lease is final; anything else (the database away a moment) is written at the next flush.
      if (error instanceof LeaseLost) this.failure = error;
      else this.dirty = true;
    });
    await this.writing;
    if (failed) throw failed;
  }
}

/**
 * Renews a run's lease while its code works: each renewal after the last one answered (never
 * piling up on a slow database), the run stopped when the lease is another's or has not been
 * renewed for most of its length, a cancel passed on, and `onStuck` once a cancelled run's code
 * has not stopped `stuckAfterMs` later.
 */
class LeaseKeeper {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private renewedAt = Date.now();
  private cancelledAt: number | null = null;
  private stuckReported = false;

  constructor(
    private readonly options: {
      renew: () => Promise<{ cancelRequested: boolean } | null>;
      everyMs: number;
      giveUpAfterMs: number;
      stuckAfterMs: number;
      onLost: (why: string) => void;
      onCancel: () => void;
      onStuck: () => void;
      warn: (error: unknown) => void;
      renewed?: () => void;
    },
  ) {
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (!this.stopped) this.timer = setTimeout(() => void this.beat(), this.options.everyMs);
  }

  private async beat(): Promise<void> {
    try {
      const beat = await this.options.renew();
      if (!beat) return this.lost('The run was taken over by another process');
      this.renewedAt = Date.now();
      this.options.renewed?.();
      if (beat.cancelRequested) {
        this.cancelledAt ??= Date.now();
        this.options.onCancel();
        if (!this.stuckReported && Date.now() - this.cancelledAt > this.options.stuckAfterMs) {
          this.stuckReported = true;
          this.options.onStuck();
          return this.stop();
        }
      }
    } catch (error) {
      this.options.warn(error);
      if (Date.now() - this.renewedAt > this.options.giveUpAfterMs) return this.lost('Its lease could not be renewed: another process may take the run');
    }
    this.schedule();
  }

  private lost(why: string): void {
    this.options.onLost(why);
    this.stop();
  }
}

/** Whether a stored input (jsonb: its keys reordered) is `input`. */
function sameInput(stored: unknown, input: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
        : value;
  const asStored = (value: unknown) => JSON.stringify(canonical(JSON.parse(JSON.stringify(value ?? {}))));
  return asStored(stored) === asStored(input);
}

/** PostgreSQL's unique violation, as pg or Prisma's adapter reports it. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown; kind?: unknown } } } };
  const cause = e?.meta?.driverAdapterError?.cause;
  return e?.code === '23505' || e?.code === 'P2002' || cause?.originalCode === '23505' || cause?.code === '23505' || cause?.kind === 'UniqueConstraintViolation';
}
