/**
 * QPay v2 (external-apis.md §1): token, invoices, payment check. The base URL is the chosen
 * environment's (production or sandbox), so tests point it at the simulator.
 */

export interface QpayCredentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

export interface QpayInvoiceRequest {
  invoice_code: string;
  sender_invoice_no: string;
  invoice_receiver_code: string;
  invoice_description: string;
  amount: number;
  callback_url: string;
  invoice_receiver_data?: { name?: string; email?: string; phone?: string };
}

export interface QpayCreatedInvoice {
  invoice_id: string;
  qr_text: string;
  qr_image: string;
  qPay_shortUrl?: string;
  urls: { name: string; description: string; logo: string; link: string }[];
}

export interface QpayPaymentRow {
  payment_id: string;
  payment_status: string;
  payment_amount: string;
  [field: string]: unknown;
}

export interface QpayPaymentCheck {
  count: number;
  /** Missing (not 0) while unpaid. */
  paid_amount?: number;
  rows: QpayPaymentRow[];
}

/**
 * A failed QPay call. `retryable`: nothing happened at QPay (a 429, a 5xx, a refused connection),
 * so the same call may be sent again. `ambiguous`: QPay may have acted (a timeout, a reset, a
 * gateway error page) — never resent for a create.
 */
export class QpayError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly retryable: boolean,
    readonly ambiguous = false,
  ) {
    super(message);
  }
}

/** QPay's spelling, and the one an SDK reports for production. */
const TOKEN_REJECTED = new Set(['NO_CREDENDIALS', 'NO_CREDENTIALS']);
/** Refresh this long before the token's absolute expiry. */
const REFRESH_MARGIN_MS = 60_000;
const MAX_ATTEMPTS = 3;

interface Token {
  access: string;
  refresh: string;
  /** Absolute, from expires_in (epoch seconds, not a lifetime). */
  accessExpiresAtMs: number;
  refreshExpiresAtMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorCode(body: unknown): string {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') return Object.keys(error)[0] ? `INVALID_${Object.keys(error)[0].toUpperCase()}` : 'INVALID_REQUEST';
  return 'UNKNOWN';
}

function errorMessage(body: unknown, status: number): string {
  const fields = body as { error?: unknown; message?: unknown } | null;
  if (typeof fields?.message === 'string') return fields.message;
  if (fields?.error && typeof fields.error === 'object') {
    return Object.entries(fields.error as Record<string, { message?: string }>).map(([field, problem]) => `${field}: ${problem?.message ?? 'invalid'}`).join('; ');
  }
  return `HTTP ${status}`;
}

export class QpayClient {
  private token: Token | null = null;
  private tokenRequest: Promise<Token> | null = null;

  constructor(private readonly credentials: QpayCredentials) {}

  createInvoice(request: QpayInvoiceRequest): Promise<QpayCreatedInvoice> {
    // A timeout or a gateway page may hide an invoice QPay did make: such failures are not resent.
    return this.call('POST', '/invoice', request, { resendAmbiguous: false });
  }

  getInvoice(qpayInvoiceId: string): Promise<{ invoice_status: string; [field: string]: unknown }> {
    return this.call('GET', `/invoice/${encodeURIComponent(qpayInvoiceId)}`, undefined, { resendAmbiguous: true });
  }

  /** Cancels an open invoice; INVOICE_PAID and INVOICE_ALREADY_CANCELED come back as QpayErrors with those codes. */
  async cancelInvoice(qpayInvoiceId: string): Promise<void> {
    await this.call('DELETE', `/invoice/${encodeURIComponent(qpayInvoiceId)}`, undefined, { resendAmbiguous: true });
  }

  /**
   * Returns a payment's money (external-apis.md §1: card payments; a bank transfer answers
   * PAYMENT_SETTLED). A repeat answers PAYMENT_ALREADY_CANCELED, so a resend after a timeout is safe.
   */
  async refundPayment(paymentId: string, note: string): Promise<void> {
    await this.call('DELETE', `/payment/refund/${encodeURIComponent(paymentId)}`, { note: note.slice(0, 255) }, { resendAmbiguous: true });
  }

  checkPayment(qpayInvoiceId: string): Promise<QpayPaymentCheck> {
    return this.call('POST', '/payment/check', { object_type: 'INVOICE', object_id: qpayInvoiceId, offset: { page_number: 1, page_limit: 100 } }, { resendAmbiguous: true });
  }

  /** A token for the next calls: cached, refreshed a minute before it expires, a full login when the refresh token is gone too. */
  private async accessToken(): Promise<string> {
    const now = Date.now();
    if (this.token && this.token.accessExpiresAtMs - REFRESH_MARGIN_MS > now) return this.token.access;
    // One token request at a time: concurrent calls share it instead of each logging in.
    this.tokenRequest ??= this.fetchToken(this.token).finally(() => (this.tokenRequest = null));
    this.token = await this.tokenRequest;
    return this.token.access;
  }

  private async fetchToken(previous: Token | null): Promise<Token> {
    if (previous && previous.refreshExpiresAtMs - REFRESH_MARGIN_MS > Date.now()) {
      try {
        return await this.tokenCall('/auth/refresh', `Bearer ${previous.refresh}`);
      } catch (error) {
        if (!(error instanceof QpayError) || error.status !== 401) throw error;
      }
    }
    const basic = Buffer.from(`${this.credentials.clientId}:${this.credentials.clientSecret}`).toString('base64');
    return this.tokenCall('/auth/token', `Basic ${basic}`);
  }

  private async tokenCall(path: string, authorization: string): Promise<Token> {
    const body = (await this.send('POST', path, authorization, undefined)) as { access_token: string; refresh_token: string; expires_in: number; refresh_expires_in: number };
    return {
      access: body.access_token,
      refresh: body.refresh_token,
      accessExpiresAtMs: Number(body.expires_in) * 1000,
      refreshExpiresAtMs: Number(body.refresh_expires_in) * 1000,
    };
  }

  /**
   * One API call with its retries: a rejected token is replaced once and the call repeated; a 429
   * or 5xx (and, for reads, a timeout) is retried with back-off up to three attempts.
   */
  private async call<T>(method: string, path: string, body: unknown, policy: { resendAmbiguous: boolean }): Promise<T> {
    let renewedToken = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.send(method, path, `Bearer ${await this.accessToken()}`, body)) as T;
      } catch (error) {
        if (!(error instanceof QpayError)) throw error;
        if (error.status === 401 && TOKEN_REJECTED.has(error.code) && !renewedToken) {
          renewedToken = true;
          this.token = null;
          attempt--;
          continue;
        }
        const mayResend = error.retryable || (error.ambiguous && policy.resendAmbiguous);
        if (!mayResend || attempt >= MAX_ATTEMPTS) throw error;
        await sleep(200 * 2 ** (attempt - 1));
      }
    }
  }

  private async send(method: string, path: string, authorization: string, body: unknown): Promise<unknown> {
    const url = `${this.credentials.baseUrl.replace(/\/+$/, '')}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.credentials.timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      if ((error as Error).name === 'TimeoutError') throw new QpayError(`QPay did not answer within ${this.credentials.timeoutMs} ms (${method} ${path})`, 504, 'TIMEOUT', false, true);
      if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND') throw new QpayError(`Could not connect to QPay at ${this.credentials.baseUrl} (${cause})`, 503, cause, true);
      throw new QpayError(`The connection to QPay failed (${method} ${path}): ${cause ?? (error as Error).message}`, 502, 'CONNECTION', false, true);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // nginx in front of QPay answers some failures with an HTML page.
      const status = response.status;
      throw new QpayError(`QPay answered ${status} with a non-JSON page (${method} ${path})`, status >= 400 ? status : 502, 'NOT_JSON', status === 429 || status === 503, status === 502 || status === 504 || status < 400);
    }
    if (response.ok) return parsed;
    const code = errorCode(parsed);
    const retryable = response.status === 429 || (response.status >= 500 && code === 'SYSTEM_BUSY');
    throw new QpayError(`QPay refused ${method} ${path}: ${code} (${errorMessage(parsed, response.status)})`, response.status, code, retryable, response.status >= 500 && !retryable);
  }
}

/** The sum of the rows that say money arrived (only PAID counts). */
export function paidSum(check: QpayPaymentCheck): number {
  return check.rows.filter((row) => row.payment_status === 'PAID').reduce((sum, row) => sum + Number(row.payment_amount), 0);
}
