/**
 * The tables a schema exports and imports (docs/database-export.md): its own data, in the order its
 * foreign keys need (a row's parent before it), with each table's primary key, columns and serial
 * columns. The platform's messaging and bookkeeping tables are the process's state, not the
 * business's, and stay behind.
 */
import { quoteIdentifier, type TransactionSession } from '../db/database';

export const PLATFORM_TABLES: readonly string[] = [
  '_prisma_migrations', 'outbox_events', 'inbox_events', 'outside_effects', 'applied_revisions', 'runs', 'run_steps', 'schedules', 'alerts', 'breaker_reports',
];

export interface TableShape {
  name: string;
  /** `"schema"."table"`. */
  qualified: string;
  key: string[];
  /** Every stored column, in the table's order (generated ones left out: they cannot be written). */
  columns: string[];
  /** Columns filled from a sequence, set past the imported rows after an import. */
  serials: string[];
  /** Rows are only ever added (the audit log): an import matches them by content, never updates one. */
  appendOnly: boolean;
}

/**
 * The tables no statement edits (the audit log, migrations/20261127050000_audit_log): their ids are
 * each system's own count, so an entry from a file is the same entry when its content is.
 */
export const APPEND_ONLY_TABLES: readonly string[] = ['admin_logs'];

/** Which tables of a service leave in an export, and which of their columns never do (secrets). */
export interface ExportPolicy {
  /** Tables that stay behind besides the platform's (sessions, request logs: not the business's data). */
  skip?: readonly string[];
  /** Per table, columns left out: API secrets and password hashes (the file lists them). */
  leaveOut?: Readonly<Record<string, readonly string[]>>;
}

export async function tablesOf(session: TransactionSession, schema: string, policy: ExportPolicy): Promise<TableShape[]> {
  const skipped = new Set([...PLATFORM_TABLES, ...(policy.skip ?? [])]);
  const rows = await session.query<{ name: string; key: string[] | null; columns: string[]; serials: string[] | null }>(
    `SELECT c.relname::text AS name,
            (SELECT array_agg(a.attname::text ORDER BY array_position(i.indkey::int2[], a.attnum))
               FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
              WHERE i.indrelid = c.oid AND i.indisprimary) AS key,
            (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns,
            (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) IS NOT NULL) AS serials
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r'
      ORDER BY c.relname`,
    [schema],
  );
  const edges = await session.query<{ child: string; parent: string }>(
    `SELECT ch.relname::text AS child, pa.relname::text AS parent FROM pg_constraint k
       JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid JOIN pg_namespace n ON n.oid = ch.relnamespace
      WHERE k.contype = 'f' AND n.nspname = $1 AND k.conrelid <> k.confrelid`,
    [schema],
  );
  const tables = rows
    .filter((row) => !skipped.has(row.name))
    .map((row) => ({ name: row.name, qualified: `${quoteIdentifier(schema)}.${quoteIdentifier(row.name)}`, key: row.key ?? [], columns: row.columns, serials: row.serials ?? [], appendOnly: APPEND_ONLY_TABLES.includes(row.name) }));
  return parentsFirst(tables, edges);
}

/** Tables ordered so that each comes after the tables its foreign keys point to (by name otherwise). */
function parentsFirst(tables: TableShape[], edges: { child: string; parent: string }[]): TableShape[] {
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  const place = (table: TableShape, path: Set<string>) => {
    if (placed.has(table.name) || path.has(table.name)) return;
    path.add(table.name);
    for (const edge of edges) if (edge.child === table.name && byName.has(edge.parent)) place(byName.get(edge.parent)!, path);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) place(table, new Set());
  return ordered;
}

/**
 * The schema's version: its latest applied migration, the platform's or its own (their names start
 * with the time they were written). An import refuses a file exported at a later version.
 */
export async function schemaVersionOf(session: TransactionSession, schema: string): Promise<string | null> {
  const [row] = await session.query<{ name: string | null }>(
    `SELECT max(regexp_replace(migration_name, '^platform:', '')) AS name FROM ${quoteIdentifier(schema)}."_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return row?.name ?? null;
}
