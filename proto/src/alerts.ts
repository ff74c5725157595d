/**
 * Alerts as data (docs/alerts.md): each service evaluates its own rules on a schedule, and each
 * condition it finds moves pending → firing → resolved once; the gateway lists every service's.
 */
import { z } from 'zod';
import { defineEvent, type EventDefinition } from './envelope';
import { defineRoute } from './http/contract';
import type { DomainServiceName } from './services';

export const alertStatuses = ['pending', 'firing', 'resolved'] as const;
export type AlertStatus = (typeof alertStatuses)[number];
export const alertSeverities = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

export const alertSchema = z.object({
  /** `<service>.<uuid>`. */
  id: z.string(),
  service: z.string(),
  /** The rule that found it, e.g. `low-free-slots`. */
  rule: z.string(),
  /** What it is about within the rule (a streaming service's code, a marketplace's id, an outside system), `-` when the rule has one. */
  key: z.string(),
  title: z.string(),
  severity: z.enum(alertSeverities),
  status: z.enum(alertStatuses),
  /** What was found at the last evaluation, as an operator reads it. */
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  pendingSince: z.string(),
  firedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  lastSeenAt: z.string(),
});
export type AlertView = z.infer<typeof alertSchema>;

/**
 * The list's order, in a service (its SQL) and across them (the gateway): firing first, then
 * pending, then resolved; the latest change first within each; then by rule and key.
 */
export function compareAlerts(a: AlertView, b: AlertView): number {
  const rank = { firing: 0, pending: 1, resolved: 2 } as const;
  const changedAt = (alert: AlertView) => alert.resolvedAt ?? alert.firedAt ?? alert.pendingSince;
  return rank[a.status] - rank[b.status] || changedAt(b).localeCompare(changedAt(a)) || a.rule.localeCompare(b.rule) || a.key.localeCompare(b.key) || a.id.localeCompare(b.id);
}

export const alertListQuery = z.object({
  /** `active` (the default): pending and firing; or one status. */
  status: z.enum(['active', ...alertStatuses]).default('active'),
  limit: z.coerce.number().int().min(1).max(200).default(100),
});

export const exampleAlert: AlertView = {
  id: 'streaming-keys.6f1d2c3a-1b2c-4d5e-8f90-1a2b3c4d5e6f',
  service: 'streaming-keys',
  rule: 'low-free-slots',
  key: 'NF',
  title: 'Few free key slots',
  severity: 'warning',
  status: 'firing',
  message: 'NF has 1 free key slot (below 3)',
  details: { service: 'NF', free: 1, threshold: 3 },
  pendingSince: '2026-11-26T08:00:00.000Z',
  firedAt: '2026-11-26T08:00:00.000Z',
  resolvedAt: null,
  lastSeenAt: '2026-11-26T08:05:00.000Z',
};

/** What `<service>.alert.changed` carries: an alert that fired or resolved, as the list shows it. */
export const alertChangePayload = z.object({
  alertId: z.string(),
  change: z.enum(['fired', 'resolved']),
  /** 1 when it fired, 2 when it resolved: a late "fired" is never told after its "resolved". */
  revision: z.number().int(),
  alert: alertSchema,
});
export type AlertChangeEvent = z.infer<typeof alertChangePayload>;

const changeEvents = new Map<string, EventDefinition<typeof alertChangePayload>>();

/**
 * `<service>.alert.changed`: one of the service's alerts fired or resolved (written in the
 * evaluation's transaction). Notifications tells the admin's ManyChat subscriber, when one is set.
 */
export function alertChangedEventOf(service: DomainServiceName): EventDefinition<typeof alertChangePayload> {
  let event = changeEvents.get(service);
  if (!event) {
    const alert = { ...exampleAlert, id: `${service}.6f1d2c3a-1b2c-4d5e-8f90-1a2b3c4d5e6f`, service };
    event = defineEvent({
      name: `${service}.alert.changed`,
      version: 1,
      payload: alertChangePayload,
      entity: { name: 'alert', key: 'alertId', revision: 'revision' },
      example: { alertId: alert.id, change: 'fired', revision: 1, alert },
    });
    changeEvents.set(service, event);
  }
  return event;
}

/** The internal list a domain service answers for the gateway's list across every service. */
export function alertRoutesOf(owner: DomainServiceName) {
  const listAlerts = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/alerts`,
    access: 'internal',
    callers: ['gateway'],
    query: alertListQuery,
    reply: z.object({ data: z.array(alertSchema) }),
    summary: `The ${owner} service's alerts, firing first, newest first`,
    category: 'Monitoring',
    example: { query: { status: 'active', limit: 100 }, reply: { data: [] } },
  });
  return { listAlerts };
}
