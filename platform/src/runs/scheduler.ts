/**
 * The one scheduler (docs/background-work.md): each schedule is a node-cron expression that starts
 * a run. Every replica keeps the same cron timers; at each tick they all try to claim it, and the
 * claim (the schedules row moving to this tick) and the run it starts commit together, so exactly
 * one replica starts each tick's run, and a replica killed after its claim leaves a pending run
 * that any process takes up. A tick is lost only when no replica's timer fires for it (every
 * replica down, or each one's event loop more than a second late: node-cron skips a late slot).
 */
import cron, { type ScheduledTask } from 'node-cron';
import { runRowId, type ScheduleView, type ServiceName } from '@bo/proto';
import type { TransactionalDb } from '../events';
import type { Logger } from '../logging';
import { levelLogOf, StateLog } from '../state-log';
import { RunStore } from './run-store';
import type { RunKind, Runs } from './runs';

export interface Schedule {
  /** Unique in the service, e.g. `expiry-check`. */
  name: string;
  /** node-cron: 5 fields, or 6 with seconds first (`*\/30 * * * * *`). */
  expression: string;
  run: RunKind<never>;
  /** What each tick's run gets (checked against the kind when the schedule is made); none: the kind's inputNow() at the tick, or `{}`. */
  input?: unknown;
}

/**
 * The cron expression of "every `ms`" for the intervals a clock divides evenly (1–59 s steps that
 * divide a minute, minutes that divide an hour, hours that divide a day), so an interval setting
 * such as RECONCILE_EVERY_MS keeps its meaning on the scheduler. Anything else is refused.
 */
export function cronEvery(ms: number): string {
  const seconds = ms / 1000;
  if (Number.isInteger(seconds) && seconds >= 1 && seconds < 60 && 60 % seconds === 0) return `*/${seconds} * * * * *`;
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes) && minutes >= 1 && minutes < 60 && 60 % minutes === 0) return `0 */${minutes} * * * *`;
  const hours = ms / 3_600_000;
  if (Number.isInteger(hours) && hours >= 1 && hours <= 24 && 24 % hours === 0) return `0 0 */${hours} * * *`;
  throw new Error(`every ${ms} ms is not a step a clock divides evenly (e.g. 5, 10, 15, 20 or 30 seconds or minutes, or 1, 2, 3, 4, 6, 8, 12 or 24 hours)`);
}

/** Whether node-cron takes `expression` (for config validation). */
export const isCronExpression = (expression: string): boolean => cron.validate(expression);

/** Whether cronEvery accepts `ms` (for config validation). */
export function isClockStep(ms: number): boolean {
  try {
    cronEvery(ms);
    return true;
  } catch {
    return false;
  }
}

export function schedule<Input>(name: string, expression: string, run: RunKind<Input>, input?: Input): Schedule {
  if (!isCronExpression(expression)) throw new Error(`schedule "${name}": "${expression}" is not a cron expression`);
  return { name, expression, run: run as RunKind<never>, input };
}

export interface SchedulerOptions {
  service: ServiceName;
  schema: string;
  db: TransactionalDb;
  runs: Runs;
  logger: Logger;
}

export class Scheduler {
  private readonly store: RunStore;
  private readonly schedules = new Map<string, Schedule>();
  private readonly tasks: ScheduledTask[] = [];
  private readonly ticking = new Set<Promise<unknown>>();
  /** Each schedule's ticks failing (the database away): logged when it starts and ends, not per tick. */
  private readonly tickStates = new Map<string, StateLog>();

  constructor(private readonly options: SchedulerOptions) {
    this.store = new RunStore(options.schema);
  }

  /** Records each schedule and starts its timer. */
  async start(schedules: readonly Schedule[]): Promise<void> {
    for (const entry of schedules) {
      if (this.schedules.has(entry.name)) throw new Error(`schedule "${entry.name}" is defined twice`);
      this.schedules.set(entry.name, entry);
      await this.store.upsertSchedule(this.options.db, { name: entry.name, expression: entry.expression, runKind: entry.run.kind });
      const task = cron.schedule(entry.expression, (context) => this.track(this.tick(entry.name, context.date)), { name: `${this.options.service}:${entry.name}` });
      this.tasks.push(task);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.tasks.map((task) => task.destroy()));
    this.tasks.length = 0;
    await Promise.all(this.ticking);
  }

  /**
   * Claims the tick `at` of a schedule and starts its run: the run's public id for the one caller
   * that claimed it, null for the others (and for a tick not later than the last one claimed).
   */
  async tick(name: string, at: Date): Promise<string | null> {
    const entry = this.schedules.get(name);
    if (!entry) throw new Error(`no schedule "${name}"`);
    const tick = new Date(Math.floor(at.getTime() / 1000) * 1000);
    try {
      // The settings as they are at this tick (read by every replica that fires it, kept by the one that claims it).
      const input = entry.input !== undefined ? entry.input : entry.run.inputNow ? await entry.run.inputNow() : {};
      const started = await this.options.db.$transaction(async (tx) => {
        if (!(await this.store.claimTick(tx, name, tick))) return null;
        // An exclusive run still going: this tick joins it, whatever its settings (the next tick has the new ones), and the row names that run.
        const { run } = await this.options.runs.begin(entry.run, input as never, { startedBy: `schedule:${name}`, schedule: name }, tx);
        await this.store.recordTickRun(tx, name, runRowId(run.id));
        return run.id;
      });
      if (started) this.options.runs.nudge();
      this.tickStateOf(name).succeeded();
      return started;
    } catch (error) {
      this.tickStateOf(name).failed(error);
      return null;
    }
  }

  private tickStateOf(name: string): StateLog {
    let state = this.tickStates.get(name);
    if (!state) {
      state = new StateLog(levelLogOf(this.options.logger), {
        failing: `the schedule ${name} cannot start its runs`,
        meanwhile: 'its ticks are skipped until the database answers; the next tick after that runs as usual',
        recovered: `the schedule ${name} starts its runs again`,
        detail: { schedule: name },
      });
      this.tickStates.set(name, state);
    }
    return state;
  }

  async list(): Promise<ScheduleView[]> {
    const rows = await this.store.schedulesList(this.options.db);
    return rows.map((row) => ({
      name: row.name,
      service: this.options.service,
      expression: row.expression,
      runKind: row.run_kind,
      lastTickAt: row.last_tick_at?.toISOString() ?? null,
      lastRunId: row.last_run_id ? `${this.options.service}.${row.last_run_id}` : null,
      nextRunAt: this.tasks.find((task) => task.name === `${this.options.service}:${row.name}`)?.getNextRun()?.toISOString() ?? null,
    }));
  }

  private track(tick: Promise<unknown>): void {
    this.ticking.add(tick);
    void tick.finally(() => this.ticking.delete(tick));
  }
}
