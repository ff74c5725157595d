/** The audit log's call. Its shapes are the route contract's (types only: no zod in the bundle). */
import type { AuditAction, listAudit, ReplyOf } from '@bo/proto';
import { apiKey, apiPath, queryString } from '../../lib/paths';

export type { AuditAction, AuditEntryView } from '@bo/proto';

export type AuditReply = ReplyOf<typeof listAudit>;

/** How many entries a page holds (the gateway's default; it allows up to 200). */
export const AUDIT_PAGE_SIZE = 50;

/** The filters as the gateway takes them: `from` and `to` are ISO times, the rest as typed (trimmed). */
export interface AuditFilters {
  actor?: string;
  entity?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
}

const queryOf = ({ actor, entity, action, from, to }: AuditFilters) => ({
  actor: actor?.trim() || undefined,
  entity: entity?.trim() || undefined,
  action: action || undefined,
  from: from || undefined,
  to: to || undefined,
  limit: AUDIT_PAGE_SIZE,
});

/**
 * A key joined with slashes is the list's first page's GET path; every key starts with the list's
 * path, so invalidating `auditKeys.all` asks every filtered list again. The older pages of a list
 * are asked for with `before` (auditPaths.page), under the same key.
 */
export const auditKeys = {
  all: apiKey('/api/admin/audit'),
  list: (filters: AuditFilters) => apiKey('/api/admin/audit', queryString(queryOf(filters))),
} as const;

export const auditPaths = {
  /** One page of the list: the newest entries, or those strictly older than `before` (the previous page's `nextBefore`). */
  page: (filters: AuditFilters, before: string | null) => apiPath('/api/admin/audit', {}, { ...queryOf(filters), before: before ?? undefined }),
} as const;
