import { auth as googleAuth, sheets, type sheets_v4 } from '@googleapis/sheets';
import type { PriceRow } from '@bo/proto';
import { allRowsRange, cellsFromRow, rowRange, rowsRange, rowsFromSheet } from '../domain/price-rows';

/**
 * One quick retry instead of gaxios' three slow ones: a read that fails falls back to the last good
 * copy, and the operator would rather see that at once than wait two seconds for the same 503.
 */
const quickRetry = { retry: 1, noResponseRetries: 1, retryDelay: 100 };

/** The price list as the spreadsheet holds it. */
export interface PriceSheet {
  readRows(): Promise<PriceRow[]>;
  /** Overwrites data row `index` (0-based, after the header). */
  writeRow(index: number, row: PriceRow): Promise<void>;
  /** Overwrites several data rows in one call. */
  writeRows(updates: { index: number; row: PriceRow }[]): Promise<void>;
  /** Writes rows after the `after` data rows the sheet has, in one call. */
  appendRows(rows: PriceRow[], after: number): Promise<void>;
  readonly sheetName: string;
}

export interface ServiceAccountCredentials {
  client_email: string;
  private_key: string;
  private_key_id?: string;
  project_id?: string;
}

export interface GoogleSheetOptions {
  spreadsheetId: string;
  sheetName: string;
  credentials: ServiceAccountCredentials;
  /** Origin of the Sheets API; the simulator's URL when no real Google project is configured. */
  rootUrl?: string;
  timeoutMs?: number;
}

/** Google Sheets v4 through Google's own client (@googleapis/sheets), authenticated as a service account. */
export class GoogleSheet implements PriceSheet {
  private readonly sheets: sheets_v4.Sheets;
  readonly sheetName: string;

  constructor(private readonly options: GoogleSheetOptions) {
    const auth = new googleAuth.JWT({
      email: options.credentials.client_email,
      // Keys pasted into environment variables often carry literal "\n".
      key: options.credentials.private_key.replaceAll('\\n', '\n'),
      keyId: options.credentials.private_key_id,
      scopes: ['https://www.googleapis.com/auth/spreadsheets'],
    });
    // A self-signed access JWT needs no call to Google's fixed token endpoint, so the same code
    // works against the real API and the simulator.
    auth.useJWTAccessWithScope = true;
    this.sheets = sheets({
      version: 'v4',
      auth,
      ...(options.rootUrl ? { rootUrl: options.rootUrl.endsWith('/') ? options.rootUrl : `${options.rootUrl}/` } : {}),
    });
    this.sheetName = options.sheetName;
  }

  async readRows(): Promise<PriceRow[]> {
    const response = await this.sheets.spreadsheets.values.get(
      { spreadsheetId: this.options.spreadsheetId, range: allRowsRange(this.sheetName), valueRenderOption: 'FORMATTED_VALUE' },
      { timeout: this.options.timeoutMs ?? 10_000, retryConfig: quickRetry },
    );
    return rowsFromSheet(response.data.values ?? undefined);
  }

  async writeRow(index: number, row: PriceRow): Promise<void> {
    await this.sheets.spreadsheets.values.update(
      {
        spreadsheetId: this.options.spreadsheetId,
        range: rowRange(this.sheetName, index),
        // RAW keeps "12,000" or "0012" exactly as typed; the sheet is the operator's text.
        valueInputOption: 'RAW',
        requestBody: { values: [cellsFromRow(row)] },
      },
      { timeout: this.options.timeoutMs ?? 10_000, retryConfig: quickRetry },
    );
  }

  async writeRows(updates: { index: number; row: PriceRow }[]): Promise<void> {
    if (updates.length === 0) return;
    await this.sheets.spreadsheets.values.batchUpdate(
      {
        spreadsheetId: this.options.spreadsheetId,
        requestBody: { valueInputOption: 'RAW', data: updates.map(({ index, row }) => ({ range: rowRange(this.sheetName, index), values: [cellsFromRow(row)] })) },
      },
      { timeout: this.options.timeoutMs ?? 10_000, retryConfig: quickRetry },
    );
  }

  async appendRows(rows: PriceRow[], after: number): Promise<void> {
    if (rows.length === 0) return;
    // Written at a fixed range below the last row rather than with values.append, whose table
    // detection can land beside a ragged last row instead of under it.
    await this.sheets.spreadsheets.values.update(
      { spreadsheetId: this.options.spreadsheetId, range: rowsRange(this.sheetName, after, rows.length), valueInputOption: 'RAW', requestBody: { values: rows.map(cellsFromRow) } },
      { timeout: this.options.timeoutMs ?? 10_000, retryConfig: quickRetry },
    );
  }
}

/** A short, safe description of a Sheets failure for logs and the 503 reply. */
export function describeSheetError(error: unknown): string {
  const response = (error as { response?: { status?: number; data?: { error?: { message?: string; status?: string } } } }).response;
  if (response?.status) {
    const detail = response.data?.error;
    return `Google Sheets answered ${response.status}${detail?.status ? ` ${detail.status}` : ''}${detail?.message ? `: ${detail.message}` : ''}`;
  }
  return `Google Sheets unreachable: ${(error as Error).message}`;
}
