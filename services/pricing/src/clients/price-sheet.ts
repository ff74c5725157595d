import { auth as googleAuth, sheets, type sheets_v4 } from '@googleapis/sheets';
import { OutsideCallError, type OutsideOptions, type OutsideSystem, type Pace } from '@bo/platform/outside';
import type { PriceRow } from '@bo/proto';
import { allRowsRange, cellsFromRow, rowRange, rowsRange, rowsFromSheet } from '../domain/price-rows';

/**
 * Google Sheets as an outside system. One quick retry instead of gaxios' three slow ones (the SDK's
 * own are off: the outside client tries): a read that fails falls back to the last good copy, and
 * the operator would rather see that at once than wait two seconds for the same 503.
 */
export function googleSheetsSystem(rootUrl = SHEETS_API_ROOT): OutsideOptions {
  return { system: 'google-sheets', baseUrl: rootUrl, timeoutMs: SHEETS_TIMEOUT_MS, retry: { retries: 1, baseDelayMs: 100 } };
}

/**
 * Google's quota: 60 reads and 60 writes a minute per user by default, and a service account is
 * one user (external-apis.md §4). Half of it at once, the other half spread over the minute: at
 * most the quota in any minute, every replica and service using the account together.
 */
function sheetsPace(quotaPerMinute: number): { burst: number; perSecond: number } {
  return { burst: Math.max(1, Math.floor(quotaPerMinute / 2)), perSecond: quotaPerMinute / 2 / 60 };
}
/** A sheet read or write waits this long at most for its turn, then fails as paced (the catalog falls back to its copy). */
const SHEETS_MAX_WAIT_MS = 5_000;

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
  /** Reads, and writes, a minute per service account (GOOGLE_SHEETS_QUOTA_PER_MINUTE). */
  quotaPerMinute: number;
}

/** Google's own origin of the Sheets API. */
export const SHEETS_API_ROOT = 'https://sheets.googleapis.com';
/** Each try of a sheet call. */
const SHEETS_TIMEOUT_MS = 10_000;

/**
 * Google Sheets v4 through Google's own client (@googleapis/sheets), authenticated as a service
 * account, each call through the platform's outside client (`run`): its deadline, breaker,
 * metrics and the account's shared pace. Every write sets cells to given values: safe to repeat.
 */
export class GoogleSheet implements PriceSheet {
  private readonly sheets: sheets_v4.Sheets;
  readonly sheetName: string;

  constructor(
    private readonly options: GoogleSheetOptions,
    private readonly system: OutsideSystem,
  ) {
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
    const response = await this.call('values.get', 'reads', (options) =>
      this.sheets.spreadsheets.values.get({ spreadsheetId: this.options.spreadsheetId, range: allRowsRange(this.sheetName), valueRenderOption: 'FORMATTED_VALUE' }, options),
    );
    return rowsFromSheet(response.data.values ?? undefined);
  }

  async writeRow(index: number, row: PriceRow): Promise<void> {
    await this.call('values.update', 'writes', (options) =>
      this.sheets.spreadsheets.values.update(
        {
          spreadsheetId: this.options.spreadsheetId,
          range: rowRange(this.sheetName, index),
          // RAW keeps "12,000" or "0012" exactly as typed; the sheet is the operator's text.
          valueInputOption: 'RAW',
          requestBody: { values: [cellsFromRow(row)] },
        },
        options,
      ),
    );
  }

  async writeRows(updates: { index: number; row: PriceRow }[]): Promise<void> {
    if (updates.length === 0) return;
    await this.call('values.batchUpdate', 'writes', (options) =>
      this.sheets.spreadsheets.values.batchUpdate(
        {
          spreadsheetId: this.options.spreadsheetId,
          requestBody: { valueInputOption: 'RAW', data: updates.map(({ index, row }) => ({ range: rowRange(this.sheetName, index), values: [cellsFromRow(row)] })) },
        },
        options,
      ),
    );
  }

  async appendRows(rows: PriceRow[], after: number): Promise<void> {
    if (rows.length === 0) return;
    // Written at a fixed range below the last row rather than with values.append, whose table
    // detection can land beside a ragged last row instead of under it.
    await this.call('values.update', 'writes', (options) =>
      this.sheets.spreadsheets.values.update(
        { spreadsheetId: this.options.spreadsheetId, range: rowsRange(this.sheetName, after, rows.length), valueInputOption: 'RAW', requestBody: { values: rows.map(cellsFromRow) } },
        options,
      ),
    );
  }

  /** One SDK call through the outside client: the try's deadline as its signal, the SDK's own retries off. */
  private call<T>(operation: string, bucket: 'reads' | 'writes', work: (options: { signal: AbortSignal; retry: false }) => Promise<T>): Promise<T> {
    const pace: Pace = { bucket, account: this.options.credentials.client_email, ...sheetsPace(this.options.quotaPerMinute), maxWaitMs: SHEETS_MAX_WAIT_MS };
    return this.system.run({ operation, idempotent: true, pace }, (signal) => work({ signal, retry: false }), answeredStatus);
  }
}

/** The HTTP status and headers of a Sheets answer the SDK threw as an error; null when there was no answer. */
function answeredStatus(error: unknown): { status: number; headers?: Headers } | null {
  const response = (error as { response?: { status?: number; headers?: unknown } }).response;
  if (!response?.status) return null;
  const headers = response.headers instanceof Headers ? response.headers : new Headers(Object.entries((response.headers ?? {}) as Record<string, string>));
  return { status: response.status, headers };
}

/** A short, safe description of a Sheets failure for logs and the 503 reply. */
export function describeSheetError(error: unknown): string {
  if (error instanceof OutsideCallError) {
    if (error.failure === 'unreachable') return `Google Sheets unreachable: ${error.details.cause}`;
    if (error.failure === 'timeout') return `Google Sheets did not answer within ${SHEETS_TIMEOUT_MS / 1000} s`;
    if (error.failure === 'breaker_open') {
      const paused = error.pausedSentence('Google Sheets');
      return error.details.lastFailure ? `${describeSheetError(error.details.lastFailure)}; ${paused}` : paused;
    }
    return `Google Sheets: ${error.message}`;
  }
  const response = (error as { response?: { status?: number; data?: { error?: { message?: string; status?: string } } } }).response;
  if (response?.status) {
    const detail = response.data?.error;
    return `Google Sheets answered ${response.status}${detail?.status ? ` ${detail.status}` : ''}${detail?.message ? `: ${detail.message}` : ''}`;
  }
  return `Google Sheets unreachable: ${(error as Error).message}`;
}
