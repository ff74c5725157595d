/**
 * The SQL of the runs tables (platform/migrations, in every service's schema). Every statement
 * names "<schema>".table, like the events module's, so it runs on any connection of the pool.
 */
import type { RunStatus, RunView, ServiceName } from '@bo/proto';
import { quoteSchema, type SqlClient } from '../events/sql';

export interface RunRow {
  id: string;
  kind: string;
  status: RunStatus;
  input: unknown;
  started_by: string;
  schedule: string | null;
  exclusive_key: string | null;
  current: number;
  total: number | null;
  counters: Record<string, number>;
  result: unknown;
  last_error: string | null;
  attempts: number;
  version: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  cancel_requested_at: Date | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

export interface StepRow {
  name: string;
  result: unknown;
  completed_at: Date;
}

export interface RunFilter {
  kind?: string;
  status?: RunStatus;
  hideCompletedScheduled?: boolean;
  limit: number;
}

export interface NewRun {
  id: string;
  kind: string;
  input: unknown;
  startedBy: string;
  schedule?: string | null;
  exclusiveKey?: string | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The run as the admin API shows it. */
export function runView(service: ServiceName, row: RunRow, steps: StepRow[] = []): RunView {
  return {
    id: `${service}.${row.id}`,
    service,
    kind: row.kind,
    status: row.status,
    progress: { current: row.current, total: row.total, counters: row.counters ?? {} },
    lastError: row.last_error,
    startedBy: row.started_by,
    schedule: row.schedule,
    attempts: row.attempts,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
    cancelRequested: row.cancel_requested_at !== null,
    version: row.version,
    steps: steps.map((step) => ({ name: step.name, completedAt: step.completed_at.toISOString() })),
    result: row.result ?? null,
  };
}

export class RunStore {
  private readonly runs: string;
  private readonly steps: string;
  private readonly schedules: string;

  constructor(schema: string) {
    const quoted = quoteSchema(schema);
    this.runs = `${quoted}.runs`;
    this.steps = `${quoted}.run_steps`;
    this.schedules = `${quoted}.schedules`;
  }

  /** Inserts a pending run; with an exclusive key already held by an active run, inserts nothing and returns null. */
  async insert(db: SqlClient, run: NewRun): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `INSERT INTO ${this.runs} (id, kind, input, started_by, schedule, exclusive_key)
       VALUES ($1::uuid, $2, $3::jsonb, $4, $5, $6)
       ON CONFLICT (exclusive_key) WHERE status IN ('pending', 'in_progress') DO NOTHING
       RETURNING *`,
      run.id,
      run.kind,
      JSON.stringify(run.input ?? {}),
      run.startedBy,
      run.schedule ?? null,
      run.exclusiveKey ?? null,
    );
    return rows[0] ?? null;
  }

  async activeWithKey(db: SqlClient, exclusiveKey: string): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(`SELECT * FROM ${this.runs} WHERE exclusive_key = $1 AND status IN ('pending', 'in_progress')`, exclusiveKey);
    return rows[0] ?? null;
  }

  async find(db: SqlClient, id: string): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(`SELECT * FROM ${this.runs} WHERE id = $1::uuid`, id);
    return rows[0] ?? null;
  }

  async list(db: SqlClient, filter: RunFilter): Promise<RunRow[]> {
    return db.$queryRawUnsafe<RunRow[]>(
      `SELECT * FROM ${this.runs}
       WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
         AND NOT ($4::boolean AND status = 'completed' AND schedule IS NOT NULL)
       ORDER BY created_at DESC, id LIMIT $3`,
      filter.kind ?? null,
      filter.status ?? null,
      filter.limit,
      filter.hideCompletedScheduled ?? false,
    );
  }

  async stepsOf(db: SqlClient, id: string): Promise<StepRow[]> {
    return db.$queryRawUnsafe<StepRow[]>(`SELECT name, result, completed_at FROM ${this.steps} WHERE run_id = $1::uuid ORDER BY completed_at, name`, id);
  }

  /**
   * Takes the oldest run of these kinds that is pending, or in progress under a lease that ran out
   * (its process died): this process holds it until `leaseMs` from now, renewed by heartbeats.
   */
  async claim(db: SqlClient, kinds: string[], owner: string, leaseMs: number, notThese: string[]): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs} SET status = 'in_progress', lease_owner = $2, lease_expires_at = now() + $3 * interval '1 millisecond',
              attempts = attempts + 1, started_at = coalesce(started_at, now()), version = version + 1
       WHERE id = (
         SELECT id FROM ${this.runs}
         WHERE kind = ANY($1::text[]) AND (status = 'pending' OR (status = 'in_progress' AND lease_expires_at < now()))
           AND NOT (id = ANY($4::uuid[]))
         ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING *`,
      kinds,
      owner,
      leaseMs,
      notThese,
    );
    return rows[0] ?? null;
  }

  /** Extends this owner's lease; null when the lease is no longer its own (another process took the run over). */
  async heartbeat(db: SqlClient, id: string, owner: string, leaseMs: number): Promise<{ cancelRequested: boolean } | null> {
    const rows = await db.$queryRawUnsafe<{ cancel_requested: boolean }[]>(
      `UPDATE ${this.runs} SET lease_expires_at = now() + $3 * interval '1 millisecond'
       WHERE id = $1::uuid AND lease_owner = $2 AND status = 'in_progress'
       RETURNING cancel_requested_at IS NOT NULL AS cancel_requested`,
      id,
      owner,
      leaseMs,
    );
    return rows[0] ? { cancelRequested: rows[0].cancel_requested } : null;
  }

  /** Writes progress under this owner's lease; null when the lease is lost. */
  async saveProgress(db: SqlClient, id: string, owner: string, progress: { current: number; total: number | null; counters: Record<string, number> }): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs} SET current = $3, total = $4, counters = $5::jsonb, version = version + 1
       WHERE id = $1::uuid AND lease_owner = $2 AND status = 'in_progress' RETURNING *`,
      id,
      owner,
      progress.current,
      progress.total,
      JSON.stringify(progress.counters),
    );
    return rows[0] ?? null;
  }

  /** Keeps a completed step's result while this owner holds the run; false when the lease is lost. */
  async saveStep(db: SqlClient, id: string, owner: string, name: string, result: unknown): Promise<boolean> {
    const held = await db.$queryRawUnsafe<{ held: boolean }[]>(
      `WITH held AS (SELECT id FROM ${this.runs} WHERE id = $1::uuid AND lease_owner = $2 AND status = 'in_progress'),
            kept AS (INSERT INTO ${this.steps} (run_id, name, result) SELECT id, $3, $4::jsonb FROM held ON CONFLICT (run_id, name) DO NOTHING)
       SELECT EXISTS (SELECT 1 FROM held) AS held`,
      id,
      owner,
      name,
      JSON.stringify(result ?? null),
    );
    return held[0]?.held === true;
  }

  /** Gives a run this owner holds back to pending (its process is stopping), the take not counted. */
  async release(db: SqlClient, id: string, owner: string): Promise<void> {
    await db.$executeRawUnsafe(
      `UPDATE ${this.runs} SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, attempts = greatest(attempts - 1, 0), version = version + 1
       WHERE id = $1::uuid AND lease_owner = $2 AND status = 'in_progress'`,
      id,
      owner,
    );
  }

  /** Ends a run this owner holds: completed, failed or cancelled. Null when the lease was lost. */
  async finish(db: SqlClient, id: string, owner: string, status: RunStatus, outcome: { result?: unknown; error?: string | null }): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs} SET status = $3, result = $4::jsonb, last_error = $5, completed_at = now(), lease_owner = NULL, lease_expires_at = NULL, version = version + 1
       WHERE id = $1::uuid AND lease_owner = $2 AND status = 'in_progress' RETURNING *`,
      id,
      owner,
      status,
      outcome.result === undefined ? null : JSON.stringify(outcome.result),
      outcome.error ?? null,
    );
    return rows[0] ?? null;
  }

  /** Ends a run whatever holds it (a run that gave up after too many attempts). */
  async fail(db: SqlClient, id: string, error: string): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs} SET status = 'failed', last_error = $2, completed_at = now(), lease_owner = NULL, lease_expires_at = NULL, version = version + 1
       WHERE id = $1::uuid AND status IN ('pending', 'in_progress') RETURNING *`,
      id,
      error,
    );
    return rows[0] ?? null;
  }

  /** A pending run is cancelled at once; a running one is asked to stop (its heartbeat sees it). */
  async requestCancel(db: SqlClient, id: string): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs}
       SET status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END,
           completed_at = CASE WHEN status = 'pending' THEN now() ELSE completed_at END,
           cancel_requested_at = coalesce(cancel_requested_at, now()), version = version + 1
       WHERE id = $1::uuid AND status IN ('pending', 'in_progress') RETURNING *`,
      id,
    );
    return rows[0] ?? null;
  }

  /**
   * A failed or cancelled run goes back to pending, keeping its completed steps and counters (or, to
   * restart, forgetting them); with `input`, that is its input from now on (its settings as they are now).
   */
  async requeue(db: SqlClient, id: string, startedBy: string, restart: boolean, input?: unknown): Promise<RunRow | null> {
    const rows = await db.$queryRawUnsafe<RunRow[]>(
      `UPDATE ${this.runs}
       SET status = 'pending', last_error = NULL, result = NULL, completed_at = NULL, cancel_requested_at = NULL,
           attempts = 0, started_by = $2, version = version + 1,
           current = CASE WHEN $3 THEN 0 ELSE current END, total = CASE WHEN $3 THEN NULL ELSE total END,
           counters = CASE WHEN $3 THEN '{}'::jsonb ELSE counters END,
           input = coalesce($4::jsonb, input)
       WHERE id = $1::uuid AND status IN ('failed', 'cancelled') RETURNING *`,
      id,
      startedBy,
      restart,
      input === undefined ? null : JSON.stringify(input),
    );
    if (rows[0] && restart) await db.$executeRawUnsafe(`DELETE FROM ${this.steps} WHERE run_id = $1::uuid`, id);
    return rows[0] ?? null;
  }

  /** Records a schedule's definition (a replica with a newer definition updates it). */
  async upsertSchedule(db: SqlClient, schedule: { name: string; expression: string; runKind: string }): Promise<void> {
    await db.$executeRawUnsafe(
      `INSERT INTO ${this.schedules} (name, expression, run_kind) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET expression = EXCLUDED.expression, run_kind = EXCLUDED.run_kind, updated_at = now()
       WHERE ${this.schedules}.expression <> EXCLUDED.expression OR ${this.schedules}.run_kind <> EXCLUDED.run_kind`,
      schedule.name,
      schedule.expression,
      schedule.runKind,
    );
  }

  /**
   * Claims one tick of a schedule: true for exactly one caller per (schedule, tick), however many
   * replicas ask, since only a tick later than the last one recorded moves the row.
   */
  async claimTick(db: SqlClient, name: string, tick: Date): Promise<boolean> {
    const moved = await db.$executeRawUnsafe(
      `UPDATE ${this.schedules} SET last_tick_at = $2::timestamptz, updated_at = now()
       WHERE name = $1 AND (last_tick_at IS NULL OR last_tick_at < $2::timestamptz)`,
      name,
      tick,
    );
    return moved === 1;
  }

  async recordTickRun(db: SqlClient, name: string, runId: string): Promise<void> {
    await db.$executeRawUnsafe(`UPDATE ${this.schedules} SET last_run_id = $2::uuid WHERE name = $1`, name, runId);
  }

  async schedulesList(db: SqlClient): Promise<{ name: string; expression: string; run_kind: string; last_tick_at: Date | null; last_run_id: string | null }[]> {
    return db.$queryRawUnsafe(`SELECT name, expression, run_kind, last_tick_at, last_run_id FROM ${this.schedules} ORDER BY name`);
  }

  /**
   * Finished runs older than `before` go (their steps with them), and a schedule's completed runs
   * older than `scheduledBefore`: a schedule every 30 s would otherwise bury the runs people started.
   */
  async sweep(db: SqlClient, before: Date, scheduledBefore: Date): Promise<number> {
    return db.$executeRawUnsafe(
      `DELETE FROM ${this.runs} WHERE (status IN ('completed', 'failed', 'cancelled') AND completed_at < $1)
          OR (status = 'completed' AND schedule IS NOT NULL AND completed_at < $2)`,
      before,
      scheduledBefore,
    );
  }
}
