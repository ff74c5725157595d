/**
 * A1 notation as the Sheets API reads it: `Sheet1!A2:K`, `'Price List'!A:K`, `Sheet1`, `A1:B2`.
 * Rows and columns here are 0-based; an absent end means "to the edge of the grid".
 */
export interface GridRange {
  sheetTitle: string;
  startRow: number;
  startCol: number;
  /** Exclusive; undefined = open-ended (whole column / to the last row). */
  endRow?: number;
  endCol?: number;
}

export class RangeParseError extends Error {
  constructor(readonly range: string) {
    super(`Unable to parse range: ${range}`);
  }
}

export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function columnIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((sum, ch) => sum * 26 + (ch.charCodeAt(0) - 64), 0) - 1;
}

/** `Sheet1` stays bare; titles with spaces or symbols are quoted, inner quotes doubled. */
export function quoteSheetTitle(title: string): string {
  return /^[A-Za-z0-9_]+$/.test(title) ? title : `'${title.replaceAll("'", "''")}'`;
}

function splitSheet(text: string): { sheet?: string; cells?: string } {
  if (text.startsWith("'")) {
    let i = 1;
    let title = '';
    for (; i < text.length; i++) {
      if (text[i] !== "'") title += text[i];
      else if (text[i + 1] === "'") {
        title += "'";
        i++;
      } else break;
    }
    if (i >= text.length) throw new RangeParseError(text);
    const rest = text.slice(i + 1);
    if (rest === '') return { sheet: title };
    if (!rest.startsWith('!')) throw new RangeParseError(text);
    return { sheet: title, cells: rest.slice(1) };
  }
  const bang = text.indexOf('!');
  if (bang >= 0) return { sheet: text.slice(0, bang), cells: text.slice(bang + 1) };
  return { cells: text };
}

// Columns stop at ZZZ, so a bare unknown sheet name such as `Sheet9` is not taken for a cell.
const CELL = /^([A-Za-z]{0,3})(\d*)$/;

function parseCells(cells: string, source: string): Omit<GridRange, 'sheetTitle'> {
  const [from, to, extra] = cells.split(':');
  if (extra !== undefined || !from) throw new RangeParseError(source);
  const start = CELL.exec(from);
  if (!start || (!start[1] && !start[2])) throw new RangeParseError(source);
  if (to === undefined) {
    if (!start[1] || !start[2]) throw new RangeParseError(source);
    const row = Number(start[2]) - 1;
    const col = columnIndex(start[1]);
    if (row < 0) throw new RangeParseError(source);
    return { startRow: row, startCol: col, endRow: row + 1, endCol: col + 1 };
  }
  const end = CELL.exec(to);
  if (!end || (!end[1] && !end[2])) throw new RangeParseError(source);
  const range = {
    startRow: start[2] ? Number(start[2]) - 1 : 0,
    startCol: start[1] ? columnIndex(start[1]) : 0,
    endRow: end[2] ? Number(end[2]) : undefined,
    endCol: end[1] ? columnIndex(end[1]) + 1 : undefined,
  };
  if (range.startRow < 0 || (range.endRow !== undefined && range.endRow <= range.startRow) || (range.endCol !== undefined && range.endCol <= range.startCol)) {
    throw new RangeParseError(source);
  }
  return range;
}

/**
 * Parses `text` against the spreadsheet's sheet titles. Without a sheet part, a text that names a
 * sheet means that whole sheet; otherwise it is a cell range on the first sheet (as Google does).
 */
export function parseA1(text: string, sheetTitles: string[]): GridRange {
  const { sheet, cells } = splitSheet(text.trim());
  if (sheet === undefined) {
    if (sheetTitles.includes(cells!)) return { sheetTitle: cells!, startRow: 0, startCol: 0 };
    if (sheetTitles.length === 0) throw new RangeParseError(text);
    return { sheetTitle: sheetTitles[0], ...parseCells(cells!, text) };
  }
  if (!sheetTitles.includes(sheet)) throw new RangeParseError(text);
  if (cells === undefined || cells === '') return { sheetTitle: sheet, startRow: 0, startCol: 0 };
  return { sheetTitle: sheet, ...parseCells(cells, text) };
}

/** `Sheet1!A1:K1000`: open ends are closed at the grid's size, as Google reports them. */
export function formatA1(range: GridRange, gridRows: number, gridCols: number): string {
  const endRow = range.endRow ?? Math.max(gridRows, range.startRow + 1);
  const endCol = range.endCol ?? Math.max(gridCols, range.startCol + 1);
  const start = `${columnName(range.startCol)}${range.startRow + 1}`;
  const end = `${columnName(endCol - 1)}${endRow}`;
  return `${quoteSheetTitle(range.sheetTitle)}!${start === end ? start : `${start}:${end}`}`;
}
