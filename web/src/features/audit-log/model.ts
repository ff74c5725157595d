/**
 * The rules of the audit log view that need no server: the actions and their colours, the pages
 * joined into one list, which fields an edit changed, and the filters' local times as the ISO times
 * the gateway takes. The action list mirrors proto's contract (types only reach the bundle, zod
 * does not); model.test.ts checks they agree.
 */
import type { AuditAction, AuditEntryView, AuditFilters, AuditReply } from './api';

export const auditActionList = ['create', 'update', 'delete', 'import'] as const satisfies readonly AuditAction[];

/** A database import's entry is one per table, its counts in `after` (docs/database-export.md). */
export const actionPalette: Record<AuditAction, string> = { create: 'green', update: 'blue', delete: 'red', import: 'purple' };

/** Every page's entries in order, each once (a page asked for again may repeat one), and every service that did not answer one of them. */
export function entriesOf(pages: readonly AuditReply[]): { entries: AuditEntryView[]; unreachable: string[] } {
  const seen = new Set<string>();
  const entries: AuditEntryView[] = [];
  const unreachable = new Set<string>();
  for (const page of pages) {
    for (const entry of page.data) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
    for (const service of page.unreachable) unreachable.add(service);
  }
  return { entries, unreachable: [...unreachable].sort() };
}

/** The fields an edit changed, in the row's order (a field only one side has counts too); none for a create or a delete. */
export function changedFields(entry: Pick<AuditEntryView, 'action' | 'before' | 'after'>): string[] {
  if (entry.action !== 'update' || !entry.before || !entry.after) return [];
  const before = entry.before;
  const after = entry.after;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.filter((field) => !(field in before) || !(field in after) || JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * A datetime-local input's value ('2026-11-27T10:05', local time) as an ISO time; undefined while it
 * is empty or not a whole time yet. `endOfMinute`: the last millisecond of that minute, so that
 * 'To 10:05' holds what happened during 10:05.
 */
export function isoOfLocal(value: string, endOfMinute = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value)) return undefined;
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return undefined;
  const minuteOnly = value.length === 16;
  return new Date(endOfMinute && minuteOnly ? time + 59_999 : time).toISOString();
}

/** The filters as typed: text fields, and the datetime-local inputs' values. */
export interface TypedFilters {
  actor: string;
  entity: string;
  from: string;
  to: string;
}

export const NOTHING_TYPED: TypedFilters = { actor: '', entity: '', from: '', to: '' };

/** What the gateway is asked for: the texts trimmed, the times as ISO ('To' to the end of its minute), the action when one is chosen. */
export function auditFiltersOf(typed: TypedFilters, action: AuditAction | ''): AuditFilters {
  return {
    actor: typed.actor.trim() || undefined,
    entity: typed.entity.trim() || undefined,
    action: action || undefined,
    from: isoOfLocal(typed.from),
    to: isoOfLocal(typed.to, true),
  };
}

/** Whether any filter narrows the list (the empty list then reads 'No changes match these filters'). */
export const isFiltered = (filters: AuditFilters): boolean => Object.values(filters).some(Boolean);
