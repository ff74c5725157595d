import { effectivePrice, priceColumns, productKey, type PriceRow } from '@bo/proto';

/** Turns the sheet's values (header row first, rows ragged) into price rows; blank rows are skipped. */
export function rowsFromSheet(values: unknown[][] | undefined): PriceRow[] {
  if (!values || values.length < 2) return [];
  return values
    .slice(1)
    .map((cells) => rowFromCells(cells))
    .filter((row) => row.product.trim() !== '');
}

/** Sheets leaves out trailing empty cells, so a short row is padded with empty strings. */
export function rowFromCells(cells: unknown[]): PriceRow {
  const entries = priceColumns.map((column, index) => [column, cellText(cells[index])] as const);
  return Object.fromEntries(entries) as PriceRow;
}

export function cellsFromRow(row: PriceRow): string[] {
  return priceColumns.map((column) => row[column] ?? '');
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return String(value);
}

export function findRowIndex(rows: PriceRow[], product: string): number {
  const key = productKey(product);
  return rows.findIndex((row) => productKey(row.product) === key);
}

/** The short answer shape the chat platform reads. */
export function priceSummary(row: PriceRow) {
  return {
    product: row.product,
    price: effectivePrice(row),
    regularPrice: row.regularPrice,
    salePrice: row.salePrice,
    description: row.description,
    status: row.status,
    stockStatus: row.stockStatus,
  };
}

/** A1 range of data row `index` (0-based, after the header): row 0 lives on sheet row 2. */
export function rowRange(sheetName: string, index: number): string {
  return rowsRange(sheetName, index, 1);
}

/** A1 range of `count` data rows from data row `index`. */
export function rowsRange(sheetName: string, index: number, count: number): string {
  const lastColumn = String.fromCharCode('A'.charCodeAt(0) + priceColumns.length - 1);
  return `${quoteSheetName(sheetName)}!A${index + 2}:${lastColumn}${index + 1 + count}`;
}

export function allRowsRange(sheetName: string): string {
  const lastColumn = String.fromCharCode('A'.charCodeAt(0) + priceColumns.length - 1);
  return `${quoteSheetName(sheetName)}!A:${lastColumn}`;
}

/** Titles with spaces or symbols must be single-quoted in A1 notation, with inner quotes doubled. */
export function quoteSheetName(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
}
