import { auditActions, exampleAuditEntry, type AuditEntryView } from '@bo/proto';
import { describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE, auditPaths, type AuditReply } from './api';
import { auditActionList, auditFiltersOf, changedFields, entriesOf, isFiltered, isoOfLocal, NOTHING_TYPED } from './model';

const entry = (change: Partial<AuditEntryView> = {}): AuditEntryView => ({ ...exampleAuditEntry, ...change });
const page = (data: AuditEntryView[], unreachable: string[] = [], nextBefore: string | null = null): AuditReply => ({ data, nextBefore, unreachable });

describe('the audit log view', () => {
  it('has every action of the contract, in its order', () => {
    expect(auditActionList).toEqual([...auditActions]);
  });

  it('names the fields an edit changed, in the row order, and none for a create, a delete or an import', () => {
    const edit = entry({ before: { id: 7, price: 35_000, updated_at: 'a', meta: { a: 1 } }, after: { id: 7, price: 32_000, updated_at: 'b', meta: { a: 1 } } });
    expect(changedFields(edit)).toEqual(['price', 'updated_at']);
    expect(changedFields(entry({ before: { id: 1, note: 'x' }, after: { id: 1, extra: null } }))).toEqual(['note', 'extra']);
    // A masked secret that changed reads differently before and after.
    expect(changedFields(exampleAuditEntry)).toEqual(['password']);
    expect(changedFields(entry({ action: 'create', before: null, after: { id: 1 } }))).toEqual([]);
    expect(changedFields(entry({ action: 'delete', before: { id: 1 }, after: null }))).toEqual([]);
    expect(changedFields(entry({ action: 'import', before: null, after: { added: 3, updated: 1 } }))).toEqual([]);
  });

  it('joins the pages, each entry once, with every service that did not answer one', () => {
    const a = entry({ id: 'pricing.2' });
    const b = entry({ id: 'pricing.1' });
    const c = entry({ id: 'payments.9' });
    const joined = entriesOf([page([a, b], ['scraper'], a.at), page([b, c], ['ai-chat', 'scraper'])]);
    expect(joined.entries.map((one) => one.id)).toEqual(['pricing.2', 'pricing.1', 'payments.9']);
    expect(joined.unreachable).toEqual(['ai-chat', 'scraper']);
    expect(entriesOf([])).toEqual({ entries: [], unreachable: [] });
  });

  it("takes a datetime-local value as local time, 'To' to the end of its minute, and nothing half typed", () => {
    expect(isoOfLocal('2026-11-27T10:05')).toBe(new Date(2026, 10, 27, 10, 5).toISOString());
    expect(isoOfLocal('2026-11-27T10:05', true)).toBe(new Date(2026, 10, 27, 10, 5, 59, 999).toISOString());
    expect(isoOfLocal('2026-11-27T10:05:30', true)).toBe(new Date(2026, 10, 27, 10, 5, 30).toISOString());
    for (const partial of ['', '2026-11-27', '2026-13-45T99:99', 'yesterday']) expect(isoOfLocal(partial)).toBeUndefined();
  });

  it('asks for the filters as typed, trimmed, and pages older than the last with before', () => {
    expect(auditFiltersOf(NOTHING_TYPED, '')).toEqual({ actor: undefined, entity: undefined, action: undefined, from: undefined, to: undefined });
    expect(isFiltered(auditFiltersOf(NOTHING_TYPED, ''))).toBe(false);
    const filters = auditFiltersOf({ actor: ' admin@example.com ', entity: 'streaming_pricing', from: '2026-11-27T10:05', to: '' }, 'update');
    expect(filters).toMatchObject({ actor: 'admin@example.com', entity: 'streaming_pricing', action: 'update', from: new Date(2026, 10, 27, 10, 5).toISOString(), to: undefined });
    expect(isFiltered(filters)).toBe(true);
    const path = new URL(auditPaths.page(filters, '2026-11-27T08:15:02.118Z'), 'http://x');
    expect(path.pathname).toBe('/api/admin/audit');
    expect(Object.fromEntries(path.searchParams)).toEqual({
      actor: 'admin@example.com', entity: 'streaming_pricing', action: 'update', from: filters.from, limit: String(AUDIT_PAGE_SIZE), before: '2026-11-27T08:15:02.118Z',
    });
    expect(new URL(auditPaths.page({}, null), 'http://x').search).toBe(`?limit=${AUDIT_PAGE_SIZE}`);
  });
});
