/**
 * A schema's data as lines of JSON (docs/database-export.md), read in one REPEATABLE READ READ ONLY
 * transaction, so the tables are as they were at one moment, and through a cursor, 500 rows at a
 * time, so a table of any size passes without being held in memory. Each table's rows come in key
 * order, as PostgreSQL's canonical JSON in UTC, and end with their count and a SHA-256 of their lines:
 * the same data exported anywhere gives the same checksum.
 */
import { createHash } from 'node:crypto';
import { quoteIdentifier, sessionOf, type Database } from '../db/database';
import { schemaVersionOf, tablesOf, type ExportPolicy } from './tables';

/** One line of a service's export. A row's line is `{"t":"row","row":<the row>}`. */
export type ExportLine =
  | { t: 'begin'; version: string | null }
  | { t: 'table'; name: string; leftOut: string[] }
  | { t: 'row'; row: Record<string, unknown> }
  | { t: 'end'; name: string; count: number; checksum: string };

const ROWS_PER_FETCH = 500;
export const ROW_LINE_PREFIX = '{"t":"row","row":';

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The export's lines, each ending in a newline. Stopping early (the caller went away) ends the transaction. */
export async function* exportLines(database: Database, schema: string, policy: ExportPolicy): AsyncGenerator<string> {
  const client = await database.pool.connect();
  const session = sessionOf(client);
  let broken: Error | undefined;
  let open = true;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`SET LOCAL TimeZone = 'UTC'`);
    yield line({ t: 'begin', version: await schemaVersionOf(session, schema) });
    for (const table of await tablesOf(session, schema, policy)) {
      const leftOut = (policy.leaveOut?.[table.name] ?? []).filter((column) => table.columns.includes(column));
      yield line({ t: 'table', name: table.name, leftOut });
      const order = (table.key.length ? table.key : table.columns).map(quoteIdentifier).join(', ');
      const without = leftOut.length ? ` - ARRAY[${leftOut.map(literal).join(', ')}]::text[]` : '';
      await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR SELECT (to_jsonb(t)${without})::text AS row FROM ${table.qualified} t ORDER BY ${order}`);
      const checksum = createHash('sha256');
      let count = 0;
      for (;;) {
        const { rows } = await client.query<{ row: string }>(`FETCH ${ROWS_PER_FETCH} FROM export_rows`);
        if (rows.length === 0) break;
        let chunk = '';
        for (const { row } of rows) {
          checksum.update(`${row}\n`);
          chunk += `${ROW_LINE_PREFIX}${row}}\n`;
        }
        count += rows.length;
        yield chunk;
      }
      await client.query('CLOSE export_rows');
      yield line({ t: 'end', name: table.name, count, checksum: checksum.digest('hex') });
    }
    await client.query('COMMIT');
    open = false;
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    if (open && !broken) await client.query('ROLLBACK').catch(() => undefined);
    client.release(broken);
  }
}

const line = (value: ExportLine) => `${JSON.stringify(value)}\n`;
