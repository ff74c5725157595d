/**
 * A service's part of an import (docs/database-export.md): every table of the file written in one
 * transaction, each row added when its key is new, updated when it differs, left alone when it is the
 * same (so the same file imported twice changes nothing), refused alone when the database refuses it
 * (its error kept). A dry run does all of it and rolls back, so its counts are the real ones.
 * Serial columns are set past the rows imported. Columns the export leaves out (secrets) are
 * neither written nor cleared: a row added gets their default, a row updated keeps its own.
 * An append-only table's row (an audit entry) is added unless an entry of the same content is
 * there, under its own id when that is free and a new one when this system used it.
 */
import { quoteIdentifier, sessionOf, type Database, type TransactionSession } from '../db/database';
import { conflict } from '../errors';
import type { AuditActor } from '../audit/actor';
import { schemaVersionOf, tablesOf, type ExportPolicy, type TableShape } from './tables';

export interface TableImportResult {
  table: string;
  added: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** The first few refusals, each naming its row's key. */
  errors: string[];
}

export interface ImportInput {
  /** The schema version the file was exported at (its service's latest migration). */
  version: string | null;
  tables: Record<string, Record<string, unknown>[]>;
  dryRun: boolean;
  /** The admin importing: one audit entry per table changed names them (the rows' own are not entries). */
  actor: AuditActor;
  /** The file's metadata.exportTimestamp, kept in those entries. */
  exportTimestamp: string;
}

const ROWS_PER_STATEMENT = 500;
const ERRORS_KEPT = 5;

export async function importRows(database: Database, schema: string, policy: ExportPolicy, input: ImportInput): Promise<{ version: string | null; tables: TableImportResult[] }> {
  const client = await database.pool.connect();
  const session = sessionOf(client);
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL TimeZone = 'UTC'`);
    const version = await schemaVersionOf(session, schema);
    if (input.version !== null && version !== null && input.version > version) {
      throw conflict(`The file was exported by a newer version (migration ${input.version}; this system is at ${version}): upgrade this system first`);
    }
    const shapes = await tablesOf(session, schema, policy);
    const known = new Set(shapes.map((shape) => shape.name));
    const results: TableImportResult[] = Object.entries(input.tables)
      .filter(([name]) => !known.has(name))
      .map(([name, rows]) => ({ table: name, added: 0, updated: 0, unchanged: 0, failed: rows.length, errors: [`No table ${name} is imported here`] }));
    for (const shape of shapes) {
      const rows = input.tables[shape.name];
      if (!rows) continue;
      const result = await importTable(session, shape, rows, policy.leaveOut?.[shape.name] ?? []);
      results.push(result);
      if (result.added + result.updated > 0) await recordImport(session, schema, input, result);
    }
    await client.query(input.dryRun ? 'ROLLBACK' : 'COMMIT');
    return { version, tables: results };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function importTable(session: TransactionSession, shape: TableShape, rows: Record<string, unknown>[], leftOut: readonly string[]): Promise<TableImportResult> {
  const result: TableImportResult = { table: shape.name, added: 0, updated: 0, unchanged: 0, failed: 0, errors: [] };
  const refuse = (count: number, message: string) => {
    result.failed += count;
    if (result.errors.length < ERRORS_KEPT) result.errors.push(message);
  };
  if (rows.length === 0) return result;
  if (shape.key.length === 0) {
    refuse(rows.length, `${shape.name} has no primary key to match rows by`);
    return result;
  }
  const present = new Set(rows.flatMap((row) => (row && typeof row === 'object' ? Object.keys(row) : [])));
  const columns = shape.columns.filter((column) => present.has(column) && !leftOut.includes(column));
  if (!shape.key.every((column) => columns.includes(column))) {
    refuse(rows.length, `${shape.name}: rows without their key (${shape.key.join(', ')})`);
    return result;
  }
  const apply = shape.appendOnly ? appendNew(session, shape, columns, result) : upsert(session, shape, columns, result);
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const batch = rows.slice(start, start + ROWS_PER_STATEMENT);
    await session.exec('SAVEPOINT import_batch');
    try {
      await apply(batch);
      await session.exec('RELEASE SAVEPOINT import_batch');
      continue;
    } catch {
      await session.exec('ROLLBACK TO SAVEPOINT import_batch');
    }
    // Some row of the batch was refused: each on its own, so the others still go in.
    for (const row of batch) {
      await session.exec('SAVEPOINT import_row');
      try {
        await apply([row]);
        await session.exec('RELEASE SAVEPOINT import_row');
      } catch (error) {
        await session.exec('ROLLBACK TO SAVEPOINT import_row');
        refuse(1, `${shape.name} ${shape.key.map((column) => JSON.stringify(row?.[column] ?? null)).join(', ')}: ${(error as Error).message}`);
      }
    }
  }
  // The next row made here gets a number past every imported one (the audit log's next entry too).
  await setSerialsPastRows(session, shape);
  return result;
}

type ApplyBatch = (batch: Record<string, unknown>[]) => Promise<void>;

/** Writes a batch as new, updated or unchanged rows, and counts them. */
function upsert(session: TransactionSession, shape: TableShape, columns: string[], result: TableImportResult): ApplyBatch {
  const sql = upsertSql(shape, columns);
  return async (batch) => {
    const written = await session.query<{ inserted: boolean }>(sql, [JSON.stringify(batch)]);
    const added = written.filter((row) => row.inserted).length;
    result.added += added;
    result.updated += written.length - added;
    result.unchanged += batch.length - written.length;
  };
}

/**
 * Adds each row of an append-only table whose content (every column but its key) no row has: first
 * those whose id is free, under it; then, with the sequence past every id, the rest under new ids.
 * The same file again finds every entry there: nothing added, nothing refused.
 */
function appendNew(session: TransactionSession, shape: TableShape, columns: string[], result: TableImportResult): ApplyBatch {
  const content = columns.filter((column) => !shape.key.includes(column));
  const list = (of: string[]) => of.map(quoteIdentifier).join(', ');
  const sameContent = `ROW(${content.map((column) => `t.${quoteIdentifier(column)}`).join(', ')}) IS NOT DISTINCT FROM ROW(${content.map((column) => `i.${quoteIdentifier(column)}`).join(', ')})`;
  const incoming = (of: string[]) => `SELECT ${of.map((column) => `i.${quoteIdentifier(column)}`).join(', ')}
    FROM jsonb_populate_recordset(NULL::${shape.qualified}, $1::jsonb) i
    WHERE NOT EXISTS (SELECT 1 FROM ${shape.qualified} t WHERE ${sameContent})`;
  const underTheirIds = `INSERT INTO ${shape.qualified} (${list(columns)}) ${incoming(columns)} ON CONFLICT DO NOTHING RETURNING 1`;
  const underNewIds = `INSERT INTO ${shape.qualified} (${list(content)}) ${incoming(content)} RETURNING 1`;
  return async (batch) => {
    const rows = JSON.stringify(batch);
    const kept = await session.query(underTheirIds, [rows]);
    await setSerialsPastRows(session, shape);
    const renumbered = await session.query(underNewIds, [rows]);
    result.added += kept.length + renumbered.length;
    result.unchanged += batch.length - kept.length - renumbered.length;
  };
}

/** Sets each serial column's sequence past the table's rows: the next row made gets a number no row has. */
async function setSerialsPastRows(session: TransactionSession, shape: TableShape): Promise<void> {
  for (const serial of shape.serials) {
    await session.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quoteIdentifier(serial)}) FROM ${shape.qualified}), 0) + 1, false)`,
      [shape.qualified, serial],
    );
  }
}

/** Adds each row whose key is new, updates each that differs, and says which it added (`xmax = 0`: a row just inserted). */
function upsertSql(shape: TableShape, columns: string[]): string {
  const list = columns.map(quoteIdentifier).join(', ');
  const others = columns.filter((column) => !shape.key.includes(column)).map(quoteIdentifier);
  const onConflict = others.length
    ? `DO UPDATE SET ${others.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}
       WHERE ROW(${others.map((column) => `${shape.qualified}.${column}`).join(', ')}) IS DISTINCT FROM ROW(${others.map((column) => `EXCLUDED.${column}`).join(', ')})`
    : 'DO NOTHING';
  return `INSERT INTO ${shape.qualified} (${list})
    SELECT ${list} FROM jsonb_populate_recordset(NULL::${shape.qualified}, $1::jsonb)
    ON CONFLICT (${shape.key.map(quoteIdentifier).join(', ')}) ${onConflict}
    RETURNING (xmax = 0) AS inserted`;
}

/** One audit entry for a table the import changed: who, from which file, and the counts. */
async function recordImport(session: TransactionSession, schema: string, input: ImportInput, result: TableImportResult): Promise<void> {
  const { actor } = input;
  await session.query(
    `INSERT INTO ${quoteIdentifier(schema)}.admin_logs (actor_id, actor_name, address, request, correlation_id, action, entity, entity_id, "before", "after")
     VALUES ($1, $2, $3, $4, $5, 'import', $6, NULL, NULL, $7)`,
    [actor.id, actor.name, actor.address, actor.request, actor.correlationId, result.table,
      JSON.stringify({ exportTimestamp: input.exportTimestamp, added: result.added, updated: result.updated, unchanged: result.unchanged, failed: result.failed })],
  );
}
