/**
 * Alerts (docs/alerts.md): a service's rules are evaluated on its schedule (one replica a tick),
 * and each condition a rule finds is one episode, keyed by rule and key, that moves
 * pending → firing → resolved once. Firing and resolving are edges: an alert that stays firing is
 * only brought up to date, never fired again; a condition that clears before it fired leaves nothing.
 */
import { randomUUID } from 'node:crypto';
import { alertChangedEventOf, type AlertSeverity, type AlertStatus, type AlertView, type DomainServiceName } from '@bo/proto';
import type { Outbox } from '../events/outbox';
import { quoteSchema, type SqlClient, type TransactionalDb } from '../events/sql';
import type { Logger } from '../logging';
import { levelLogOf, StateLog } from '../state-log';
import { forgetBreakerReports } from './platform-rules';

/** One condition a rule found at an evaluation. */
export interface AlertFinding {
  /** What it is about within the rule (a streaming service's code, a marketplace's id); `-` when the rule has one condition. */
  key: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface AlertRule {
  /** Unique in the service, e.g. `low-free-slots`. */
  name: string;
  title: string;
  severity: AlertSeverity;
  /** How long a condition must hold before it fires (0: at the evaluation that finds it). */
  forMs?: number;
  /** The conditions that hold now. A rule that throws leaves its alerts as they were (its state is unknown). */
  evaluate(now: Date): Promise<AlertFinding[]>;
}

/** An alert that fired or resolved at an evaluation. */
interface AlertChange {
  alert: AlertView;
  change: 'fired' | 'resolved';
}

interface AlertRow {
  id: string;
  rule: string;
  key: string;
  title: string;
  severity: AlertSeverity;
  status: AlertStatus;
  message: string;
  details: Record<string, unknown>;
  pending_since: Date;
  fired_at: Date | null;
  resolved_at: Date | null;
  last_seen_at: Date;
}

/** Resolved alerts are kept this long, then swept. */
const RESOLVED_RETENTION_DAYS = 90;

function alertView(service: DomainServiceName, row: AlertRow): AlertView {
  return {
    id: `${service}.${row.id}`,
    service,
    rule: row.rule,
    key: row.key,
    title: row.title,
    severity: row.severity,
    status: row.status,
    message: row.message,
    details: row.details ?? {},
    pendingSince: row.pending_since.toISOString(),
    firedAt: row.fired_at?.toISOString() ?? null,
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    lastSeenAt: row.last_seen_at.toISOString(),
  };
}

export interface AlertsOptions {
  service: DomainServiceName;
  schema: string;
  db: TransactionalDb;
  logger: Logger;
  /** Where each alert that fires or resolves is published (`<service>.alert.changed`), in the transaction that moves it. */
  outbox: Pick<Outbox<SqlClient>, 'enqueue' | 'nudge'>;
}

/** A schema's alerts table, quoted. */
const alertsTableOf = (schema: string) => `${quoteSchema(schema)}.alerts`;

/**
 * Forgets what the alerts keep no longer (the hourly sweep, not every evaluation): resolved
 * episodes past RESOLVED_RETENTION_DAYS, and breaker reports no process has renewed for an hour.
 */
export async function sweepAlerts(db: SqlClient, schema: string): Promise<{ resolvedAlerts: number; breakerReports: number }> {
  const resolvedAlerts = await db.$executeRawUnsafe(`DELETE FROM ${alertsTableOf(schema)} WHERE status = 'resolved' AND resolved_at < now() - $1 * interval '1 day'`, RESOLVED_RETENTION_DAYS);
  const breakerReports = await forgetBreakerReports(db, schema);
  return { resolvedAlerts, breakerReports };
}

export class Alerts {
  private readonly table: string;
  private readonly rules = new Map<string, AlertRule>();
  /** Each rule's evaluation failing (a dependency away): logged when it starts and ends, not each minute. */
  private readonly ruleStates = new Map<string, StateLog>();

  constructor(private readonly options: AlertsOptions) {
    this.table = alertsTableOf(options.schema);
  }

  register(rules: readonly AlertRule[]): void {
    for (const rule of rules) {
      if (this.rules.has(rule.name)) throw new Error(`alert rule "${rule.name}" is registered twice`);
      this.rules.set(rule.name, rule);
    }
  }

  private stateOf(rule: string): StateLog {
    let state = this.ruleStates.get(rule);
    if (!state) {
      state = new StateLog(levelLogOf(this.options.logger), {
        failing: `the alert rule ${rule} cannot be evaluated`,
        meanwhile: 'its alerts stay as they were until it can',
        recovered: `the alert rule ${rule} is evaluated again`,
        detail: { rule },
      });
      this.ruleStates.set(rule, state);
    }
    return state;
  }

  get ruleNames(): string[] {
    return [...this.rules.keys()];
  }

  /** Evaluates every rule once; each rule's alerts move in a transaction of their own. */
  async evaluate(now = new Date()): Promise<{ firing: number; fired: number; resolved: number; failedRules: string[] }> {
    const changes: AlertChange[] = [];
    const failedRules: string[] = [];
    let firing = 0;
    for (const rule of this.rules.values()) {
      let findings: AlertFinding[];
      const state = this.stateOf(rule.name);
      try {
        findings = await rule.evaluate(now);
        state.succeeded();
      } catch (error) {
        failedRules.push(rule.name);
        state.failed(error);
        continue;
      }
      const moved = await this.options.db.$transaction((tx) => this.apply(tx, rule, findings, now));
      changes.push(...moved.changes);
      firing += moved.firing;
    }
    for (const change of changes) {
      this.options.logger[change.change === 'fired' ? 'warn' : 'info']({ alert: change.alert.id, rule: change.alert.rule, key: change.alert.key }, `alert ${change.change}: ${change.alert.message}`);
    }
    if (changes.length) this.options.outbox.nudge();
    return { firing, fired: changes.filter((change) => change.change === 'fired').length, resolved: changes.filter((change) => change.change === 'resolved').length, failedRules };
  }

  /** The alerts, firing first then pending then resolved, newest first within each, then by rule and key. */
  async list(filter: { status: 'active' | AlertStatus; limit: number }): Promise<AlertView[]> {
    const rows = await this.options.db.$queryRawUnsafe<AlertRow[]>(
      `SELECT * FROM ${this.table}
       WHERE CASE WHEN $1 = 'active' THEN status IN ('pending', 'firing') ELSE status = $1 END
       -- The order of compareAlerts (proto), which the gateway keeps across services.
       ORDER BY CASE status WHEN 'firing' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, coalesce(resolved_at, fired_at, pending_since) DESC, rule, key, id
       LIMIT $2`,
      filter.status,
      filter.limit,
    );
    return rows.map((row) => alertView(this.options.service, row));
  }

  private async apply(tx: SqlClient, rule: AlertRule, findings: AlertFinding[], now: Date): Promise<{ changes: AlertChange[]; firing: number }> {
    const open = new Map(
      (await tx.$queryRawUnsafe<AlertRow[]>(`SELECT * FROM ${this.table} WHERE rule = $1 AND status IN ('pending', 'firing') FOR UPDATE`, rule.name)).map((row) => [row.key, row]),
    );
    const changes: AlertChange[] = [];
    const found = new Map(findings.map((finding) => [finding.key, finding]));
    let firing = 0;
    for (const finding of found.values()) {
      let row = open.get(finding.key);
      if (!row) {
        const inserted = await tx.$queryRawUnsafe<AlertRow[]>(
          `INSERT INTO ${this.table} (id, rule, key, title, severity, status, message, details, pending_since, last_seen_at)
           VALUES ($1::uuid, $2, $3, $4, $5, 'pending', $6, $7::jsonb, $8, $8)
           ON CONFLICT (rule, key) WHERE status IN ('pending', 'firing') DO NOTHING RETURNING *`,
          randomUUID(), rule.name, finding.key, rule.title, rule.severity, finding.message, JSON.stringify(finding.details ?? {}), now,
        );
        // Another evaluation opened it meanwhile: it moves it.
        if (!inserted[0]) continue;
        row = inserted[0];
      }
      const fires = row.status === 'pending' && now.getTime() - row.pending_since.getTime() >= (rule.forMs ?? 0);
      const [updated] = await tx.$queryRawUnsafe<AlertRow[]>(
        `UPDATE ${this.table} SET message = $2, details = $3::jsonb, last_seen_at = $4, title = $5, severity = $6,
                status = CASE WHEN $7 THEN 'firing' ELSE status END, fired_at = CASE WHEN $7 THEN $4 ELSE fired_at END
         WHERE id = $1::uuid RETURNING *`,
        row.id, finding.message, JSON.stringify(finding.details ?? {}), now, rule.title, rule.severity, fires,
      );
      if (updated.status === 'firing') firing += 1;
      if (fires) changes.push({ alert: alertView(this.options.service, updated), change: 'fired' });
    }
    for (const row of open.values()) {
      if (found.has(row.key)) continue;
      if (row.status === 'pending') {
        // It cleared before it fired: nothing happened.
        await tx.$executeRawUnsafe(`DELETE FROM ${this.table} WHERE id = $1::uuid`, row.id);
        continue;
      }
      const [resolved] = await tx.$queryRawUnsafe<AlertRow[]>(`UPDATE ${this.table} SET status = 'resolved', resolved_at = $2 WHERE id = $1::uuid RETURNING *`, row.id, now);
      changes.push({ alert: alertView(this.options.service, resolved), change: 'resolved' });
    }
    const event = alertChangedEventOf(this.options.service);
    for (const { alert, change } of changes) await this.options.outbox.enqueue(tx, event, { alertId: alert.id, change, revision: change === 'fired' ? 1 : 2, alert });
    return { changes, firing };
  }
}
