import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asService } from '@bo/platform/testing/identity';
import { signedAs } from '@bo/platform/testing/services';
import type { ExportLine } from '@bo/platform/migration-export';
import type { DomainServiceName } from '@bo/proto';
import { eventually, listPrice, paidEnvelope, startKeysSystem, type KeysSystem } from './system';

const asGateway = asService('gateway');
const admin = { ...signedAs({ kind: 'admin', userId: 'u-exporter', email: 'exporter@example.mn', isAdmin: true, keyId: null }), 'x-forwarded-for': '203.0.113.9' };
const actor = { id: 'u-importer', name: 'importer@example.mn', address: '203.0.113.10', request: 'POST /api/migration/import', correlationId: null };

interface ExportedTable {
  rows: Record<string, unknown>[];
  count: number;
  checksum: string;
  leftOut: string[];
}
interface Exported {
  version: string | null;
  tables: Record<string, ExportedTable>;
  text: string;
}

/** A service's export as the gateway reads it: its lines, parsed. */
async function exportOf(k: KeysSystem, service: DomainServiceName): Promise<Exported> {
  const response = await fetch(`${k.system.url(service)}/internal/${service}/export`, { headers: asGateway });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  const text = await response.text();
  const exported: Exported = { version: null, tables: {}, text };
  let current: ExportedTable | null = null;
  for (const line of text.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as ExportLine;
    if (entry.t === 'begin') exported.version = entry.version;
    if (entry.t === 'table') exported.tables[entry.name] = current = { rows: [], count: 0, checksum: '', leftOut: entry.leftOut };
    if (entry.t === 'row') current!.rows.push(entry.row);
    if (entry.t === 'end') Object.assign(exported.tables[entry.name]!, { count: entry.count, checksum: entry.checksum });
  }
  return exported;
}

const importInto = (k: KeysSystem, service: DomainServiceName, exported: Exported, options: { dryRun: boolean; version?: string | null }) =>
  k.system.call(service, 'POST', `/internal/${service}/import`, {
    version: options.version === undefined ? exported.version : options.version,
    tables: Object.fromEntries(Object.entries(exported.tables).map(([name, table]) => [name, table.rows])),
    dryRun: options.dryRun,
    exportTimestamp: '2026-11-27T08:00:00.000Z',
    actor,
  }, asGateway);

const byTable = (tables: { table: string; errors: string[] }[]) => Object.fromEntries(tables.map((table) => [table.table, table]));
const checksumsOf = (exported: Exported, except: string[] = []) =>
  Object.fromEntries(Object.entries(exported.tables).filter(([name]) => !except.includes(name)).map(([name, table]) => [name, [table.count, table.checksum]]));

/**
 * Export and import (docs/database-export.md) between two systems on their own databases, through
 * each service's internal routes as the gateway calls them: the data comes back the same, twice
 * changes nothing, secrets stay behind, and a file from a newer version is refused.
 */
describe('database export and import, service by service', () => {
  let source: KeysSystem;
  let target: KeysSystem;

  beforeAll(async () => {
    [source, target] = await Promise.all([startKeysSystem('export_source'), startKeysSystem('export_target')]);
    const call = (method: string, path: string, body?: unknown) => source.call(method, path, body, admin);
    for (const months of [1, 3, 6]) await listPrice({ call }, 'NFX', months, 30_000 + months);
    expect((await call('POST', '/api/streaming-keys', { service: 'NFX', email: 'nfx.export@example.mn', months: 1, profiles: 4, password: 'Export-Pass-2026' })).status).toBe(200);
    // More rows than one read of the cursor: a table passes in several pieces.
    await source.keys.prisma.streamingKey.createMany({
      data: Array.from({ length: 1_200 }, (_, i) => ({ email: `pool${Math.floor(i / 5)}@example.mn`, key: `DPS-EXPORT-${i}`, service: 'DPS', profileNumber: (i % 5) + 1, expiresAt: new Date(Date.UTC(2027, 0, 1 + (i % 300))) })),
    });
    await source.system.publish(paidEnvelope('INV-EXPORT0001', { kind: 'streaming', serviceCode: 'NFX', months: 1, email: 'buyer.export@example.mn', streamingInvoiceId: null }, { amount: 30_001 }));
    await eventually(async () => (await source.keys.prisma.streamingInvoice.count()) === 1);
    const settings = { qpayClientId: 'EXPORT_MERCHANT', qpayClientSecret: 'export-client-secret', qpayInvoiceCode: 'EXPORT_INVOICE', qpayEnvironment: 'sandbox', enabled: false };
    expect((await source.system.call('payments', 'POST', '/api/qpay/settings', settings, admin)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([source?.stop(), target?.stop()]);
  });

  it('exports each table in key order with its count and checksum, the same twice, and leaves the platform tables behind', async () => {
    const first = await exportOf(source, 'streaming-keys');
    expect(first.version).toMatch(/^\d{14}_/);
    expect(first.tables.streaming_keys!.count).toBe(1_204);
    expect(first.tables.streaming_keys!.rows).toHaveLength(1_204);
    const ids = first.tables.streaming_keys!.rows.map((row) => row.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(first.tables.streaming_pricing!.count).toBe(3);
    expect(Object.keys(first.tables)).toEqual(expect.arrayContaining(['admin_logs', 'streaming_accounts', 'streaming_invoices', 'streaming_qr_codes', 'renewal_sessions', 'code_fetches']));
    for (const platformTable of ['outbox_events', 'inbox_events', 'runs', 'schedules', 'alerts', '_prisma_migrations']) expect(first.tables).not.toHaveProperty(platformTable);
    expect(checksumsOf(await exportOf(source, 'streaming-keys'))).toEqual(checksumsOf(first));
  });

  it('leaves secrets behind: QPay secrets never leave, an account password leaves only sealed with its key id', async () => {
    const payments = await exportOf(source, 'payments');
    expect(payments.tables.qpay_settings!.leftOut).toEqual(['qpay_client_secret', 'webhook_secret']);
    expect(payments.tables.qpay_settings!.rows[0]).toMatchObject({ qpay_client_id: 'EXPORT_MERCHANT' });
    expect(payments.tables.qpay_settings!.rows[0]).not.toHaveProperty('qpay_client_secret');
    expect(payments.text).not.toContain('export-client-secret');
    const keys = await exportOf(source, 'streaming-keys');
    expect(keys.text).not.toContain('Export-Pass-2026');
    expect(keys.tables.streaming_accounts!.rows[0]!.password).toMatch(/^v2\.[0-9a-f]{8}\./);
  });

  it('imports into a fresh system: a dry run counts and changes nothing, the import adds every row, and its export is the same', async () => {
    const exported = await exportOf(source, 'streaming-keys');
    const dry = await importInto(target, 'streaming-keys', exported, { dryRun: true });
    expect(dry.status).toBe(200);
    expect(byTable(dry.body.tables).streaming_keys).toMatchObject({ added: 1_204, updated: 0, unchanged: 0, failed: 0 });
    // An empty table is nothing wrong: no refusal, no message.
    expect(Object.values(exported.tables).some((table) => table.count === 0)).toBe(true);
    for (const table of dry.body.tables) expect(table, table.table).toMatchObject({ failed: 0, errors: [] });
    expect(await target.keys.prisma.streamingKey.count()).toBe(0);

    const applied = await importInto(target, 'streaming-keys', exported, { dryRun: false });
    expect(applied.status).toBe(200);
    for (const table of applied.body.tables) expect(table, table.table).toMatchObject({ added: exported.tables[table.table]!.count, failed: 0, errors: [] });
    const again = await exportOf(target, 'streaming-keys');
    // Every table the same, row for row; the audit log has the source's entries and one 'import' entry per table the import changed.
    expect(checksumsOf(again, ['admin_logs'])).toEqual(checksumsOf(exported, ['admin_logs']));
    const changed = applied.body.tables.filter((table: { added: number }) => table.added > 0).map((table: { table: string }) => table.table);
    const imports = again.tables.admin_logs!.rows.filter((row) => row.action === 'import');
    expect(imports.map((row) => row.entity).sort()).toEqual(changed.sort());
    expect(imports[0]).toMatchObject({ actor_name: 'importer@example.mn', address: '203.0.113.10', request: 'POST /api/migration/import' });
    expect(again.tables.admin_logs!.count).toBe(exported.tables.admin_logs!.count + changed.length);
    // The account's password, sealed with the key ring both systems share, opens on the target.
    const accounts = await target.call('GET', '/api/streaming-accounts');
    expect(accounts.body.data).toContainEqual(expect.objectContaining({ email: 'nfx.export@example.mn', passwordSet: true, passwordUnreadable: null, passwordMasked: '••••2026' }));
    // New rows made on the target are numbered past the imported ones.
    await listPrice({ call: (method, path, body) => target.call(method, path, body, admin) }, 'DPS', 1, 25_000);
    const prices = await target.keys.prisma.streamingPricing.findMany({ orderBy: { id: 'asc' } });
    expect(prices).toHaveLength(4);
    expect(new Set(prices.map((price) => price.id)).size).toBe(4);

    // The same file again: nothing to add or update, and no new entry.
    const twice = await importInto(target, 'streaming-keys', exported, { dryRun: false });
    for (const table of twice.body.tables) expect(table, table.table).toMatchObject({ added: 0, updated: 0, failed: 0 });
    expect((await exportOf(target, 'streaming-keys')).tables.admin_logs!.count).toBe(again.tables.admin_logs!.count + 1);
  });

  it("updates a row that differs, keeps a left-out secret as it is, adds the file's audit entries beside the system's own, and refuses a row the database refuses while the others go in", async () => {
    const payments = await exportOf(source, 'payments');
    const settings = { qpayClientId: 'TARGET_MERCHANT', qpayClientSecret: 'target-secret', qpayInvoiceCode: 'TARGET_INVOICE', qpayEnvironment: 'sandbox', enabled: false };
    expect((await target.system.call('payments', 'POST', '/api/qpay/settings', settings, admin)).status).toBe(200);
    // The target's audit log has entries of its own, numbered as the file's are.
    const own = (await exportOf(target, 'payments')).tables.admin_logs!.rows;
    const fileEntries = payments.tables.admin_logs!.rows;
    expect(own.some((row) => fileEntries.some((entry) => entry.id === row.id))).toBe(true);
    const applied = await importInto(target, 'payments', payments, { dryRun: false });
    expect(byTable(applied.body.tables).qpay_settings).toMatchObject({ updated: 1, failed: 0 });
    // The file's entries go in beside them (under new ids where the target used theirs): none refused, none changed.
    expect(byTable(applied.body.tables).admin_logs).toMatchObject({ added: fileEntries.length, updated: 0, failed: 0, errors: [] });
    const entries = (await exportOf(target, 'payments')).tables.admin_logs!.rows;
    const contentOf = (row: Record<string, unknown>) => JSON.stringify({ ...row, id: undefined });
    for (const row of own) expect(entries).toContainEqual(row);
    for (const entry of fileEntries) expect(entries.map(contentOf)).toContain(contentOf(entry));
    expect(new Set(entries.map((row) => row.id)).size).toBe(entries.length);
    // The same file again: every entry found, nothing added or refused.
    const twice = await importInto(target, 'payments', payments, { dryRun: false });
    expect(byTable(twice.body.tables).admin_logs).toMatchObject({ added: 0, updated: 0, unchanged: fileEntries.length, failed: 0, errors: [] });
    const shown = (await target.system.call('payments', 'GET', '/api/qpay/settings', undefined, admin)).body;
    // The merchant's id and invoice code from the file; the target's own secret kept (the file has none).
    expect(shown).toMatchObject({ qpayClientId: 'EXPORT_MERCHANT', qpayInvoiceCode: 'EXPORT_INVOICE', qpayClientSecret: '••••cret', qpayClientSecretSet: true, qpayClientSecretUnreadable: null });

    const keys = await exportOf(source, 'streaming-keys');
    const pricing = keys.tables.streaming_pricing!;
    // A row with a new id but the service and duration of a row already there: the unique index refuses it alone.
    const clash = { ...pricing.rows[0]!, id: 9_999 };
    const fresh = { ...pricing.rows[0]!, id: 9_998, duration: 12 };
    const reply = await importInto(target, 'streaming-keys', { ...keys, tables: { streaming_pricing: { ...pricing, rows: [...pricing.rows, clash, fresh] } } }, { dryRun: false });
    const result = byTable(reply.body.tables).streaming_pricing;
    expect(result).toMatchObject({ added: 1, failed: 1 });
    expect(result.errors[0]).toMatch(/^streaming_pricing 9999: .*duplicate key/);
    expect(await target.keys.prisma.streamingPricing.findUnique({ where: { id: 9_998 } })).not.toBeNull();
  });

  it('refuses a file from a newer version and a table it does not have, changing nothing', async () => {
    const keys = await exportOf(source, 'streaming-keys');
    const before = await target.keys.prisma.streamingKey.count();
    const newer = await importInto(target, 'streaming-keys', keys, { dryRun: false, version: '99990101000000_from_the_future' });
    expect(newer.status).toBe(409);
    expect(newer.body.error).toMatch(/^The file was exported by a newer version \(migration 99990101000000_from_the_future; this system is at \d{14}_\w+\): upgrade this system first$/);
    const stranger = await importInto(target, 'streaming-keys', { ...keys, tables: { no_such_table: { rows: [{ id: 1 }], count: 1, checksum: '', leftOut: [] } } }, { dryRun: false });
    expect(byTable(stranger.body.tables).no_such_table).toMatchObject({ failed: 1, errors: ['No table no_such_table is imported here'] });
    expect(await target.keys.prisma.streamingKey.count()).toBe(before);
    // Only the gateway calls these routes.
    expect((await fetch(`${target.system.url('streaming-keys')}/internal/streaming-keys/export`, { headers: admin })).status).toBe(403);
  });
});
