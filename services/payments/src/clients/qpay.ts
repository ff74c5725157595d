import { OutsideCallError, type OutsideAnswer, type OutsideOptions, type OutsideSystem } from '@bo/platform/outside';

/**
 * QPay v2 (external-apis.md §1): token, invoices, payment check, through the platform's outside
 * client. The base URL is the chosen environment's (production or sandbox), so tests point it at
 * the simulator. QPay publishes no rate limit: no pace.
 */

export interface QpayCredentials {
  clientId: string;
  clientSecret: string;
}

/** A QPay environment as an outside system: production is `qpay`, the sandbox `qpay-sandbox` (each its own breaker). */
export function qpaySystem(settings: { environment: string; baseUrl: string; timeoutMs: number }): OutsideOptions {
  return { system: settings.environment === 'production' ? 'qpay' : 'qpay-sandbox', baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, retry: { retries: 2, baseDelayMs: 200 } };
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

interface Token {
  access: string;
  refresh: string;
  /** Absolute, from expires_in (epoch seconds, not a lifetime). */
  accessExpiresAtMs: number;
  refreshExpiresAtMs: number;
}

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

  constructor(
    private readonly system: OutsideSystem,
    private readonly credentials: QpayCredentials,
  ) {}

  createInvoice(request: QpayInvoiceRequest): Promise<QpayCreatedInvoice> {
    // A timeout or a gateway page may hide an invoice QPay did make: such failures are not resent.
    return this.call('createInvoice', 'POST', '/invoice', request, { resendAmbiguous: false });
  }

  getInvoice(qpayInvoiceId: string): Promise<{ invoice_status: string; [field: string]: unknown }> {
    return this.call('getInvoice', 'GET', `/invoice/${encodeURIComponent(qpayInvoiceId)}`, undefined, { resendAmbiguous: true });
  }

  /** Cancels an open invoice; INVOICE_PAID and INVOICE_ALREADY_CANCELED come back as QpayErrors with those codes. */
  async cancelInvoice(qpayInvoiceId: string): Promise<void> {
    await this.call('cancelInvoice', 'DELETE', `/invoice/${encodeURIComponent(qpayInvoiceId)}`, undefined, { resendAmbiguous: true });
  }

  /**
   * Returns a payment's money (external-apis.md §1: card payments; a bank transfer answers
   * PAYMENT_SETTLED). A repeat answers PAYMENT_ALREADY_CANCELED, so a resend after a timeout is safe.
   */
  async refundPayment(paymentId: string, note: string): Promise<void> {
    await this.call('refundPayment', 'DELETE', `/payment/refund/${encodeURIComponent(paymentId)}`, { note: note.slice(0, 255) }, { resendAmbiguous: true });
  }

  checkPayment(qpayInvoiceId: string): Promise<QpayPaymentCheck> {
    return this.call('checkPayment', 'POST', '/payment/check', { object_type: 'INVOICE', object_id: qpayInvoiceId, offset: { page_number: 1, page_limit: 100 } }, { resendAmbiguous: true });
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
        return await this.tokenCall('refreshToken', '/auth/refresh', `Bearer ${previous.refresh}`);
      } catch (error) {
        if (!(error instanceof QpayError) || error.status !== 401) throw error;
      }
    }
    const basic = Buffer.from(`${this.credentials.clientId}:${this.credentials.clientSecret}`).toString('base64');
    return this.tokenCall('token', '/auth/token', `Basic ${basic}`);
  }

  private async tokenCall(operation: string, path: string, authorization: string): Promise<Token> {
    // Asking for a token twice makes two tokens, the first unused: safe to repeat.
    const body = (await this.send(operation, 'POST', path, authorization, undefined, true)) as { access_token: string; refresh_token: string; expires_in: number; refresh_expires_in: number };
    return {
      access: body.access_token,
      refresh: body.refresh_token,
      accessExpiresAtMs: Number(body.expires_in) * 1000,
      refreshExpiresAtMs: Number(body.refresh_expires_in) * 1000,
    };
  }

  /**
   * One API call: a rejected token is replaced once and the call repeated. The outside client tries
   * a 429, a SYSTEM_BUSY and a refused connection again (QPay did nothing), and a timeout or a
   * gateway page only where a resend is safe (`resendAmbiguous`).
   */
  private async call<T>(operation: string, method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, policy: { resendAmbiguous: boolean }): Promise<T> {
    try {
      return (await this.send(operation, method, path, `Bearer ${await this.accessToken()}`, body, policy.resendAmbiguous)) as T;
    } catch (error) {
      if (!(error instanceof QpayError) || error.status !== 401 || !TOKEN_REJECTED.has(error.code)) throw error;
      this.token = null;
      return (await this.send(operation, method, path, `Bearer ${await this.accessToken()}`, body, policy.resendAmbiguous)) as T;
    }
  }

  private async send(operation: string, method: 'GET' | 'POST' | 'DELETE', path: string, authorization: string, body: unknown, idempotent: boolean): Promise<unknown> {
    let answer: OutsideAnswer;
    try {
      answer = await this.system.call({
        operation,
        method,
        path,
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        idempotent,
        notTaken: qpayDidNothing,
      });
    } catch (error) {
      if (!(error instanceof OutsideCallError)) throw error;
      if (error.failure === 'timeout') throw new QpayError(`QPay did not answer within ${this.system.timeoutMs} ms (${method} ${path})`, 504, 'TIMEOUT', false, true);
      if (error.failure === 'breaker_open') throw new QpayError(`QPay is failing: ${error.message}`, 503, 'BREAKER_OPEN', true);
      if (error.details.notTaken) throw new QpayError(`Could not connect to QPay at ${this.system.baseUrl} (${error.details.cause})`, 503, error.details.cause ?? 'CONNECTION', true);
      throw new QpayError(`The connection to QPay failed (${method} ${path}): ${error.details.cause ?? error.message}`, 502, 'CONNECTION', false, true);
    }
    const { status, text } = answer;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // nginx in front of QPay answers some failures with an HTML page.
      throw new QpayError(`QPay answered ${status} with a non-JSON page (${method} ${path})`, status >= 400 ? status : 502, 'NOT_JSON', status === 429 || status === 503, status === 502 || status === 504 || status < 400);
    }
    if (status >= 200 && status < 300) return parsed;
    const code = errorCode(parsed);
    const retryable = status === 429 || (status >= 500 && code === 'SYSTEM_BUSY');
    throw new QpayError(`QPay refused ${method} ${path}: ${code} (${errorMessage(parsed, status)})`, status, code, retryable, status >= 500 && !retryable);
  }
}

/** QPay's answers that say nothing was done: SYSTEM_BUSY, and nginx's 503 page. */
function qpayDidNothing({ status, text }: OutsideAnswer): boolean {
  if (status === 503 && !text.trimStart().startsWith('{')) return true;
  try {
    return errorCode(JSON.parse(text)) === 'SYSTEM_BUSY';
  } catch {
    return false;
  }
}

/** The sum of the rows that say money arrived (only PAID counts). */
export function paidSum(check: QpayPaymentCheck): number {
  return check.rows.filter((row) => row.payment_status === 'PAID').reduce((sum, row) => sum + Number(row.payment_amount), 0);
}
