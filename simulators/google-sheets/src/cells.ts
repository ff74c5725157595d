import { invalidArgument } from './errors';

/** A stored cell: what was typed, kept typed. '' is an empty cell. */
export type Cell = string | number | boolean;
export type ValueInputOption = 'RAW' | 'USER_ENTERED';
export type ValueRenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/** RAW keeps input as sent; USER_ENTERED reads it as if typed into the UI. */
export function toCell(value: unknown, input: ValueInputOption): Cell {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'string') throw invalidArgument(`Invalid values: ${JSON.stringify(value)} is not a string, number or boolean`);
  if (input === 'RAW') return value;
  if (value.startsWith("'")) return value.slice(1);
  const trimmed = value.trim();
  if (NUMBER.test(trimmed)) return Number(trimmed);
  if (/^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  return value;
}

export function renderCell(cell: Cell, render: ValueRenderOption): Cell {
  if (render !== 'FORMATTED_VALUE') return cell;
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  return String(cell);
}

/** Drops trailing empty cells of each line, then trailing empty lines, as Google does. */
export function trimTrailing(lines: Cell[][]): Cell[][] {
  const trimmed = lines.map((line) => {
    let end = line.length;
    while (end > 0 && line[end - 1] === '') end--;
    return line.slice(0, end);
  });
  while (trimmed.length > 0 && trimmed[trimmed.length - 1].length === 0) trimmed.pop();
  return trimmed;
}

export function transpose<T>(lines: T[][], fill: T): T[][] {
  const width = Math.max(0, ...lines.map((line) => line.length));
  return Array.from({ length: width }, (_, c) => lines.map((line) => (c < line.length ? line[c] : fill)));
}
