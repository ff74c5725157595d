/**
 * The Database Migration card's reading of a file and of an import's answer (document 1 §2, §5;
 * docs/database-export.md). Pure: the browser checks only what the spec asks for (it parses, and
 * has metadata.exportTimestamp); the gateway checks the rest of the shape.
 */
import type { MigrationMetadata, TableImportView } from './api';

/**
 * The gateway's 400 for a body that is not a migration file (contract INVALID_MIGRATION_FILE in
 * @bo/proto, whose values would bring zod into the bundle: the text is repeated here).
 */
export const INVALID_MIGRATION_FILE = 'Invalid migration file format';

/** How an encrypted export names its format (contract ENCRYPTED_EXPORT_FORMAT, repeated for the same reason). */
export const ENCRYPTED_EXPORT_FORMAT = 'bo-encrypted-export';
/** The least a passphrase may be (contract EXPORT_PASSPHRASE_MIN_LENGTH). */
export const EXPORT_PASSPHRASE_MIN_LENGTH = 12;

/** A file as the browser read it: JSON with `metadata.exportTimestamp`, the rest as it came. */
export interface MigrationFile {
  data?: unknown;
  metadata: Partial<MigrationMetadata> & { exportTimestamp: string };
  [field: string]: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's text as a migration file, or null when it does not parse or lacks metadata.exportTimestamp ('Invalid migration file format'). */
export function parseMigrationFile(text: string): MigrationFile | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.metadata)) return null;
  const { exportTimestamp } = value.metadata;
  return typeof exportTimestamp === 'string' && exportTimestamp.trim() !== '' ? (value as MigrationFile) : null;
}

/** An encrypted export: its rows are sealed, and the gateway opens them with the passphrase (its metadata is readable). */
export const isEncrypted = (file: MigrationFile) => file.format === ENCRYPTED_EXPORT_FORMAT;

/** What is wrong with the passphrases typed for an export, or null when they will do. */
export function passphraseProblem(passphrase: string, again: string): 'tooShort' | 'differ' | null {
  if ([...passphrase].length < EXPORT_PASSPHRASE_MIN_LENGTH) return 'tooShort';
  return passphrase === again ? null : 'differ';
}

/** How many tables the file holds: those of `data` per service, else those metadata.tableCounts names. */
export function tableCountOf(file: MigrationFile): number {
  if (isRecord(file.data)) return Object.values(file.data).reduce<number>((sum, tables) => sum + (isRecord(tables) ? Object.keys(tables).length : 0), 0);
  return isRecord(file.metadata.tableCounts) ? Object.keys(file.metadata.tableCounts).length : 0;
}

/** The export time as a Date, or null when the file's text is not a time (it is then shown as written). */
export function exportTimeOf(file: MigrationFile): Date | null {
  const time = new Date(file.metadata.exportTimestamp);
  return Number.isNaN(time.getTime()) ? null : time;
}

/** Whether the import adds, updates or refuses anything in this table. */
export const hasWork = (table: TableImportView) => table.added > 0 || table.updated > 0 || table.failed > 0;

/** Rows added, updated, unchanged and failed over every table. */
export function totalsOf(results: readonly TableImportView[]) {
  const totals = { tables: results.length, added: 0, updated: 0, unchanged: 0, failed: 0 };
  for (const table of results) {
    totals.added += table.added;
    totals.updated += table.updated;
    totals.unchanged += table.unchanged;
    totals.failed += table.failed;
  }
  return totals;
}

/** Tables with something refused first, then those with changes, then the rest; by name within each. */
export function inReadingOrder(results: readonly TableImportView[]): TableImportView[] {
  const rank = (table: TableImportView) => (table.failed > 0 ? 0 : hasWork(table) ? 1 : 2);
  return [...results].sort((a, b) => rank(a) - rank(b) || a.table.localeCompare(b.table));
}
