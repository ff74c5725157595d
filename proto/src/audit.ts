/**
 * The audit log (docs/audit-log.md): every row an admin's request created, changed or deleted, who
 * did it, from where, and the row before and after (secrets masked). Each service keeps the entries
 * of its own tables; the gateway lists every service's, newest first.
 */
import { z } from 'zod';
import { defineRoute } from './http/contract';
import type { DomainServiceName } from './services';

/** 'import': a database import's changes to one table, its counts in `after` (docs/database-export.md). */
export const auditActions = ['create', 'update', 'delete', 'import'] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditEntrySchema = z.object({
  /** `<service>.<n>`. */
  id: z.string(),
  service: z.string(),
  at: z.string(),
  /** The admin as they were when they did it: their user id and name (e-mail). */
  actorId: z.string().nullable(),
  actorName: z.string(),
  /** The address their request came from (the gateway's resolved client address). */
  address: z.string().nullable(),
  /** The request that made the change, e.g. `PUT /api/qpay/settings`. */
  request: z.string(),
  correlationId: z.string().nullable(),
  action: z.enum(auditActions),
  /** The table changed, e.g. `qpay_settings`, and the row's id. */
  entity: z.string(),
  entityId: z.string().nullable(),
  /** The row before and after the change (none before a create, none after a delete); secrets read `••••`. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/**
 * The list's order, the same in every service and across them: newest first; entries of the same
 * millisecond by service name, then newest (highest number) first. A place in it, the cursor
 * `<at>~<service>~<number>` of the last entry a page shows, is exact however many entries share a
 * millisecond.
 */
const AUDIT_CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z~[a-z][a-z-]*~\d{1,19}$/;

export function auditCursorOf(entry: Pick<AuditEntryView, 'at' | 'service' | 'id'>): string {
  return `${entry.at}~${entry.service}~${entry.id.slice(entry.service.length + 1)}`;
}

export function parseAuditCursor(cursor: string): { at: string; service: string; number: bigint } {
  const [at, service, number] = cursor.split('~');
  return { at: at!, service: service!, number: BigInt(number!) };
}

/** The list's order (see AUDIT_CURSOR). */
export function compareAuditEntries(a: AuditEntryView, b: AuditEntryView): number {
  const number = (entry: AuditEntryView) => BigInt(entry.id.slice(entry.service.length + 1));
  const [na, nb] = [number(a), number(b)];
  return b.at.localeCompare(a.at) || a.service.localeCompare(b.service) || (nb > na ? 1 : nb < na ? -1 : 0);
}

export const auditListQuery = z.object({
  /** The admin's name or id, as recorded (exact). */
  actor: z.string().trim().min(1).max(200).optional(),
  /** A table, e.g. `streaming_keys`. */
  entity: z.string().trim().min(1).max(100).optional(),
  action: z.enum(auditActions).optional(),
  /** Entries at or after this time. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Entries at or before this time. */
  to: z.iso.datetime({ offset: true }).optional(),
  /** The next page: the entries after this place in the list (the previous page's `nextBefore`, see auditCursorOf). */
  before: z.string().regex(AUDIT_CURSOR, 'A page cursor is the previous page\'s nextBefore').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const exampleAuditEntry: AuditEntryView = {
  id: 'payments.42',
  service: 'payments',
  at: '2026-11-27T08:15:02.118Z',
  actorId: 'f3b2c1d0-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  actorName: 'operator@example.com',
  address: '203.0.113.7',
  request: 'PUT /api/qpay/settings',
  correlationId: 'c0ffee00-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
  action: 'update',
  entity: 'qpay_settings',
  entityId: '1',
  before: { id: 1, username: 'SHOP_MERCHANT', password: '••••', callback_url: 'https://shop.example.com/api/qpay/callback' },
  after: { id: 1, username: 'SHOP_MERCHANT', password: '•••• (changed)', callback_url: 'https://shop.example.com/api/qpay/callback' },
};

/** The internal list every domain service answers for the gateway's list across the system. */
export function auditRoutesOf(owner: DomainServiceName) {
  const listAudit = defineRoute({
    owner,
    method: 'GET',
    path: `/internal/${owner}/audit`,
    access: 'internal',
    callers: ['gateway'],
    query: auditListQuery,
    reply: z.object({ data: z.array(auditEntrySchema) }),
    summary: `The ${owner} service's audit entries, newest first`,
    category: 'Monitoring',
    example: { query: { limit: 50 }, reply: { data: [exampleAuditEntry] } },
  });
  return { listAudit };
}
