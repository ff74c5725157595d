/**
 * The alert rules every process has (docs/alerts.md): its dead letters, and its outside systems'
 * circuit breakers. A breaker lives in one process, so each process reports its breakers that are
 * not closed into the service's `breaker_reports`, and the rule reads every replica's reports.
 */
import { quoteSchema, type SqlClient } from '../events/sql';
import type { EventTransport } from '../events/transport';
import type { Logger } from '../logging';
import { levelLogOf, StateLog } from '../state-log';
import type { CircuitBreaker } from '../outside/breaker';
import type { AlertRule } from './alerts';

/** A breaker not closed for this long fires its alert. */
export const BREAKER_OPEN_ALERT_MS = 5 * 60_000;
/** How often a process reports its breakers; a report older than three of these is a process gone. */
const BREAKER_REPORT_EVERY_MS = 30_000;
const REPORT_STALE_MS = 3 * BREAKER_REPORT_EVERY_MS;
/** Reports of processes gone are deleted after an hour. */
const REPORT_FORGOTTEN_MS = 60 * 60_000;

export function deadLettersRule(service: string, transport: Pick<EventTransport, 'deadLetterDepth'>): AlertRule {
  return {
    name: 'dead-letters',
    title: 'Dead letters waiting',
    severity: 'critical',
    async evaluate() {
      const waiting = await transport.deadLetterDepth(service);
      if (waiting === 0) return [];
      return [{ key: '-', message: `${waiting} ${waiting === 1 ? 'event' : 'events'} in the ${service} service's dead letters: replay or discard them`, details: { waiting } }];
    },
  };
}

/** Deletes breaker reports no process has renewed for REPORT_FORGOTTEN_MS (their processes died); answers how many. */
export async function forgetBreakerReports(db: SqlClient, schema: string, now = new Date()): Promise<number> {
  return await db.$executeRawUnsafe(`DELETE FROM ${quoteSchema(schema)}.breaker_reports WHERE reported_at < $1`, new Date(now.getTime() - REPORT_FORGOTTEN_MS));
}

export function breakerOpenRule(options: { schema: string; db: SqlClient; openForMs?: number }): AlertRule {
  const table = `${quoteSchema(options.schema)}.breaker_reports`;
  const openForMs = options.openForMs ?? BREAKER_OPEN_ALERT_MS;
  return {
    name: 'breaker-open',
    title: 'Outside system failing',
    severity: 'critical',
    async evaluate(now) {
      const rows = await options.db.$queryRawUnsafe<{ system: string; since: Date; processes: number }[]>(
        `SELECT system, min(open_since) AS since, count(*)::int AS processes FROM ${table} WHERE reported_at >= $1 GROUP BY system ORDER BY system`,
        new Date(now.getTime() - REPORT_STALE_MS),
      );
      return rows
        .filter((row) => now.getTime() - row.since.getTime() >= openForMs)
        .map((row) => ({
          key: row.system,
          message: `Calls to ${row.system} have been failing since ${row.since.toISOString()} (its circuit breaker open for ${Math.floor((now.getTime() - row.since.getTime()) / 60_000)} min)`,
          details: { system: row.system, openSince: row.since.toISOString(), processes: row.processes },
        }));
    },
  };
}

/** Writes this process's breakers that are not closed (and takes back the ones that closed) every 30 s. */
export class BreakerReporter {
  private readonly table: string;
  private timer: NodeJS.Timeout | null = null;
  private reported = new Set<string>();
  private readonly reports: StateLog;

  constructor(
    private readonly options: { schema: string; db: SqlClient; owner: string; breakers: ReadonlyMap<string, CircuitBreaker>; logger: Logger; everyMs?: number },
  ) {
    this.table = `${quoteSchema(options.schema)}.breaker_reports`;
    this.reports = new StateLog(levelLogOf(options.logger), {
      failing: 'the circuit breakers cannot be reported',
      meanwhile: 'the outside-system alert sees them again once the database answers',
      recovered: 'the circuit breakers are reported again',
    });
  }

  start(): void {
    const report = () => this.report().then(() => this.reports.succeeded(), (error: unknown) => this.reports.failed(error));
    this.timer = setInterval(() => void report(), this.options.everyMs ?? BREAKER_REPORT_EVERY_MS);
    this.timer.unref();
  }

  async report(): Promise<void> {
    const open = new Map<string, number>();
    for (const [system, breaker] of this.options.breakers) if (breaker.openSince !== null) open.set(system, breaker.openSince);
    for (const [system, since] of open) {
      await this.options.db.$executeRawUnsafe(
        `INSERT INTO ${this.table} (owner, system, open_since, reported_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (owner, system) DO UPDATE SET open_since = excluded.open_since, reported_at = excluded.reported_at`,
        this.options.owner, system, new Date(since),
      );
    }
    const closed = [...this.reported].filter((system) => !open.has(system));
    if (closed.length) await this.options.db.$executeRawUnsafe(`DELETE FROM ${this.table} WHERE owner = $1 AND system = ANY($2::text[])`, this.options.owner, closed);
    this.reported = new Set(open.keys());
  }

  /** Stops reporting and takes this process's reports back (it no longer calls anyone). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.resolve(this.options.db.$executeRawUnsafe(`DELETE FROM ${this.table} WHERE owner = $1`, this.options.owner)).catch(() => undefined);
  }
}
