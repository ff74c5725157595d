import { formatA1, parseA1, RangeParseError, type GridRange } from './a1';
import { renderCell, toCell, transpose, trimTrailing, type Cell, type ValueInputOption, type ValueRenderOption } from './cells';
import { invalidArgument } from './errors';

export type MajorDimension = 'ROWS' | 'COLUMNS';

export interface Sheet {
  sheetId: number;
  title: string;
  rowCount: number;
  columnCount: number;
  grid: Cell[][];
}

export interface ValueRange {
  range: string;
  majorDimension: MajorDimension;
  values?: Cell[][];
}

export interface UpdateValuesResponse {
  spreadsheetId: string;
  updatedRange: string;
  updatedRows?: number;
  updatedColumns?: number;
  updatedCells?: number;
  updatedData?: ValueRange;
}

export interface WriteInput {
  range: string;
  values: unknown[][];
  majorDimension?: MajorDimension;
}

/** A write checked against the grid, not yet applied: batchUpdate checks every part first. */
export interface PlannedWrite {
  sheet: Sheet;
  at: GridRange;
  lines: unknown[][];
  input: ValueInputOption;
}

/** Real sheets start with a 1000 x 26 grid and grow when written past it. */
const DEFAULT_ROWS = 1000;
const DEFAULT_COLUMNS = 26;

export class Spreadsheet {
  readonly sheets: Sheet[];

  constructor(
    readonly spreadsheetId: string,
    readonly title: string,
    sheets: { title: string; rows: unknown[][] }[],
    readonly sharedWith: Set<string>,
  ) {
    this.sheets = sheets.map((sheet, index) => ({
      sheetId: index === 0 ? 0 : 100_000 + index,
      title: sheet.title,
      rowCount: DEFAULT_ROWS,
      columnCount: DEFAULT_COLUMNS,
      grid: [],
    }));
    this.sheets.forEach((sheet, index) => this.apply({ sheet, at: { sheetTitle: sheet.title, startRow: 0, startCol: 0 }, lines: sheets[index].rows, input: 'USER_ENTERED' }));
  }

  resolve(text: string): { sheet: Sheet; range: GridRange } {
    try {
      const range = parseA1(text, this.sheets.map((s) => s.title));
      return { sheet: this.sheets.find((s) => s.title === range.sheetTitle)!, range };
    } catch (error) {
      if (error instanceof RangeParseError) throw invalidArgument(error.message);
      throw error;
    }
  }

  read(text: string, majorDimension: MajorDimension = 'ROWS', render: ValueRenderOption = 'FORMATTED_VALUE'): ValueRange {
    const { sheet, range } = this.resolve(text);
    const rows: Cell[][] = [];
    const lastRow = Math.min(range.endRow ?? sheet.grid.length, sheet.grid.length);
    for (let r = range.startRow; r < lastRow; r++) {
      const line = sheet.grid[r];
      rows.push(line.slice(range.startCol, range.endCol ?? line.length).map((cell) => renderCell(cell, render)));
    }
    const values = trimTrailing(majorDimension === 'COLUMNS' ? transpose(rows, '' as Cell) : rows);
    return { range: formatA1(range, sheet.rowCount, sheet.columnCount), majorDimension, ...(values.length ? { values } : {}) };
  }

  /** Checks a write (range, bounds, cell types) without changing anything. */
  planWrite(write: WriteInput, input: ValueInputOption): PlannedWrite {
    const { sheet, range } = this.resolve(write.range);
    return this.planAt(sheet, range, write, input);
  }

  private planAt(sheet: Sheet, range: GridRange, write: WriteInput, input: ValueInputOption): PlannedWrite {
    const lines = write.majorDimension === 'COLUMNS' ? transpose(write.values ?? [], null as unknown) : write.values ?? [];
    const width = Math.max(0, ...lines.map((line) => line.length));
    const bounds = formatA1(range, sheet.rowCount, sheet.columnCount);
    if (range.endRow !== undefined && range.startRow + lines.length > range.endRow) {
      throw invalidArgument(`Requested writing within range [${bounds}], but tried writing to row [${range.startRow + lines.length}]`);
    }
    if (range.endCol !== undefined && range.startCol + width > range.endCol) {
      throw invalidArgument(`Requested writing within range [${bounds}], but tried writing to column [${range.startCol + width}]`);
    }
    for (const line of lines) for (const value of line) if (value !== null && value !== undefined) toCell(value, input);
    return { sheet, at: range, lines, input };
  }

  /** Writes the cells; null leaves a cell as it was, '' empties it. */
  apply(write: PlannedWrite): UpdateValuesResponse {
    const { sheet, at, lines, input } = write;
    let cells = 0;
    let width = 0;
    lines.forEach((line, i) => {
      const row = this.row(sheet, at.startRow + i);
      line.forEach((value, j) => {
        if (value === null || value === undefined) return;
        while (row.length <= at.startCol + j) row.push('');
        row[at.startCol + j] = toCell(value, input);
        cells += 1;
        width = Math.max(width, j + 1);
      });
    });
    this.grow(sheet);
    const written: GridRange = { sheetTitle: sheet.title, startRow: at.startRow, startCol: at.startCol, endRow: at.startRow + Math.max(lines.length, 1), endCol: at.startCol + Math.max(width, 1) };
    if (cells === 0) return { spreadsheetId: this.spreadsheetId, updatedRange: formatA1(at, sheet.rowCount, sheet.columnCount) };
    return { spreadsheetId: this.spreadsheetId, updatedRange: formatA1(written, sheet.rowCount, sheet.columnCount), updatedRows: lines.length, updatedColumns: width, updatedCells: cells };
  }

  /**
   * Finds the table in `text` (the filled rows under the range's columns) and writes after its last
   * row; INSERT_ROWS pushes the rows below down instead of overwriting them.
   */
  append(write: WriteInput, input: ValueInputOption, insertRows: boolean): { tableRange?: string; updates: UpdateValuesResponse } {
    const { sheet, range } = this.resolve(write.range);
    const filled = (r: number) => sheet.grid[r].slice(range.startCol, range.endCol).some((cell) => cell !== '');
    let first = -1;
    let last = -1;
    const lastRow = Math.min(range.endRow ?? sheet.grid.length, sheet.grid.length);
    for (let r = range.startRow; r < lastRow; r++) {
      if (!filled(r)) continue;
      if (first < 0) first = r;
      last = r;
    }
    let tableRange: string | undefined;
    if (last >= 0) {
      const width = Math.max(...sheet.grid.slice(first, last + 1).map((row) => trimTrailing([row.slice(range.startCol, range.endCol)])[0]?.length ?? 0));
      tableRange = formatA1({ sheetTitle: sheet.title, startRow: first, startCol: range.startCol, endRow: last + 1, endCol: range.startCol + width }, sheet.rowCount, sheet.columnCount);
    }
    const at: GridRange = { sheetTitle: sheet.title, startRow: last >= 0 ? last + 1 : range.startRow, startCol: range.startCol };
    const plan = this.planAt(sheet, at, write, input);
    if (insertRows && at.startRow < sheet.grid.length) sheet.grid.splice(at.startRow, 0, ...plan.lines.map(() => [] as Cell[]));
    return { ...(tableRange ? { tableRange } : {}), updates: this.apply(plan) };
  }

  clear(text: string): string {
    const { sheet, range } = this.resolve(text);
    const lastRow = Math.min(range.endRow ?? sheet.grid.length, sheet.grid.length);
    for (let r = range.startRow; r < lastRow; r++) {
      const row = sheet.grid[r];
      for (let c = range.startCol; c < Math.min(range.endCol ?? row.length, row.length); c++) row[c] = '';
    }
    sheet.grid = trimTrailing(sheet.grid);
    return formatA1(range, sheet.rowCount, sheet.columnCount);
  }

  /** What spreadsheets.get returns (the fields a client asks for with fields=sheets.properties). */
  describe() {
    return {
      spreadsheetId: this.spreadsheetId,
      properties: { title: this.title, locale: 'en_US', timeZone: 'Asia/Ulaanbaatar', autoRecalc: 'ON_CHANGE' },
      sheets: this.sheets.map((sheet, index) => ({
        properties: { sheetId: sheet.sheetId, title: sheet.title, index, sheetType: 'GRID', gridProperties: { rowCount: sheet.rowCount, columnCount: sheet.columnCount } },
      })),
      spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${this.spreadsheetId}/edit`,
    };
  }

  private row(sheet: Sheet, index: number): Cell[] {
    while (sheet.grid.length <= index) sheet.grid.push([]);
    return sheet.grid[index];
  }

  private grow(sheet: Sheet): void {
    sheet.rowCount = Math.max(sheet.rowCount, sheet.grid.length);
    sheet.columnCount = Math.max(sheet.columnCount, ...sheet.grid.map((row) => row.length));
  }
}
