import { z } from 'zod';
import { renderCell } from './cells';
import { Spreadsheet } from './spreadsheet';

const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What /__sim/spreadsheets and the build options accept; rows are read as if typed (USER_ENTERED). */
export const spreadsheetSeedSchema = z.object({
  id: z.string().min(1).regex(/^[A-Za-z0-9_-]+$/),
  title: z.string().optional(),
  sheets: z.array(z.object({ title: z.string().min(1), rows: z.array(z.array(cellSchema)).default([]) })).min(1),
  /** E-mails the spreadsheet is shared with; the simulator's own service account when absent. */
  sharedWith: z.array(z.string()).optional(),
});
export type SpreadsheetSeed = z.input<typeof spreadsheetSeedSchema>;

export class SheetsState {
  readonly spreadsheets = new Map<string, Spreadsheet>();

  constructor(private readonly defaultSharedWith: string) {}

  seed(input: SpreadsheetSeed): Spreadsheet {
    const seed = spreadsheetSeedSchema.parse(input);
    const spreadsheet = new Spreadsheet(seed.id, seed.title ?? seed.id, seed.sheets, new Set(seed.sharedWith ?? [this.defaultSharedWith]));
    this.spreadsheets.set(seed.id, spreadsheet);
    return spreadsheet;
  }

  get(id: string): Spreadsheet | undefined {
    return this.spreadsheets.get(id);
  }

  /** A spreadsheet as people see it: every cell as its displayed text. */
  view(id: string) {
    const spreadsheet = this.spreadsheets.get(id);
    if (!spreadsheet) return undefined;
    return {
      id: spreadsheet.spreadsheetId,
      title: spreadsheet.title,
      sharedWith: [...spreadsheet.sharedWith],
      sheets: spreadsheet.sheets.map((sheet) => ({
        title: sheet.title,
        sheetId: sheet.sheetId,
        rows: sheet.grid.map((row) => row.map((cell) => renderCell(cell, 'FORMATTED_VALUE') as string)),
      })),
    };
  }

  clear(): void {
    this.spreadsheets.clear();
  }
}
