/**
 * ManyChat's public API (external-apis.md §2): bearer token `<page_id>:<secret>`, `/fb/...` paths,
 * `{status:"success"|"error", ...}` envelopes — and `status` is checked on every answer, because an
 * HTTP 200 may carry `"status":"error"`. 429, 5xx and no answer are retried a bounded number of
 * times with back-off; 401 and every other refusal fail at once. ManyChat has no idempotency key,
 * so a retried send after a timeout may reach the person twice: the one at-least-once step (ADR 14).
 */

/** The message tags ManyChat accepts outside the 24-hour window for our kinds of message. */
export type MessageTag = 'ACCOUNT_UPDATE' | 'POST_PURCHASE_UPDATE' | 'CONFIRMED_EVENT_UPDATE';

/** A Dynamic Block v2 object as `sendContent` takes it (the subset we send: text messages with url buttons). */
export interface DynamicBlock {
  version: 'v2';
  content: {
    messages: { type: 'text'; text: string; buttons?: { type: 'url'; caption: string; url: string }[] }[];
  };
}

export interface ManyChatSettings {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
}

const defaultRetry: RetryPolicy = { retries: 2, baseDelayMs: 300 };
/**
 * Sends a second this process starts: ManyChat allows 25 sendContent calls a second per account
 * (external-apis.md §2); the margin absorbs network jitter. A 429 (other replicas) is still retried.
 */
const SENDS_PER_SECOND = 20;

/** ManyChat's code for "outside the 24-hour window, and no message tag". */
export const OUTSIDE_WINDOW_CODE = 3011;

/** ManyChat refused, failed or could not be reached. `status` 0: no answer (network or timeout). */
export class ManyChatError extends Error {
  constructor(
    readonly status: number,
    /** ManyChat's own error code (3011, 3021, 304x…) when it gave one. */
    readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'ManyChatError';
  }

  /** Worth trying again later: rate limits, server errors and no answer. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }

  get outsideWindow(): boolean {
    return this.code === OUTSIDE_WINDOW_CODE;
  }
}

export interface PageInfo {
  id: string;
  name: string;
}

interface Envelope {
  status?: unknown;
  data?: unknown;
  message?: unknown;
  code?: unknown;
  details?: { messages?: unknown };
}

export class ManyChatClient {
  private readonly root: string;
  private readonly retry: RetryPolicy;
  /** When the next send may start: sends are spaced 1/SENDS_PER_SECOND apart. */
  private nextSendAt = 0;

  constructor(
    private readonly settings: ManyChatSettings,
    options: { retry?: Partial<RetryPolicy> } = {},
  ) {
    this.root = settings.baseUrl.replace(/\/+$/, '');
    this.retry = { ...defaultRetry, ...options.retry };
  }

  /**
   * The longest one sendContent may take: every try waiting its full timeout, the back-offs
   * between them at their largest, and a second of pacing. What a caller's claim must outlast.
   */
  get sendDeadlineMs(): number {
    let backoffs = 0;
    for (let retry = 0; retry < this.retry.retries; retry++) backoffs += this.retry.baseDelayMs * 2 ** retry * 1.25;
    return (this.retry.retries + 1) * this.settings.timeoutMs + Math.ceil(backoffs) + 1_000;
  }

  /** Sends a Dynamic Block to a subscriber; with a tag it may go outside the 24-hour window. Aborting `signal` stops it (no further tries). */
  async sendContent(subscriberId: string, data: DynamicBlock, messageTag?: MessageTag, signal?: AbortSignal): Promise<void> {
    const id = subscriberIdOf(subscriberId);
    await this.paceSend();
    await this.request('POST', '/fb/sending/sendContent', { subscriber_id: id, data, ...(messageTag ? { message_tag: messageTag } : {}) }, signal);
  }

  /** The page the token belongs to (the status card's page name); one attempt, a short wait. */
  async getInfo(timeoutMs = 3_000): Promise<PageInfo> {
    const data = (await this.once('GET', '/fb/page/getInfo', undefined, timeoutMs)) as { id?: unknown; name?: unknown } | undefined;
    return { id: String(data?.id ?? ''), name: String(data?.name ?? '') };
  }

  private async paceSend(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextSendAt);
    this.nextSendAt = at + 1000 / SENDS_PER_SECOND;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(method, path, body, this.settings.timeoutMs, signal);
      } catch (error) {
        // The caller gave up (its deadline): no further try may start.
        if (signal?.aborted || !(error instanceof ManyChatError) || !error.retryable || attempt >= this.retry.retries) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() / 2)));
      }
    }
  }

  private async once(method: 'GET' | 'POST', path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    let response: Response;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      response = await fetch(`${this.root}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.settings.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw new ManyChatError(0, null, `ManyChat send abandoned: ${(signal.reason as Error | undefined)?.message ?? 'aborted'}`);
      const timedOut = timeout.aborted;
      throw new ManyChatError(0, null, timedOut ? `ManyChat did not answer within ${timeoutMs} ms` : `ManyChat is unreachable (${(error as Error).message})`);
    }
    const text = await response.text();
    let envelope: Envelope | undefined;
    try {
      envelope = text ? (JSON.parse(text) as Envelope) : undefined;
    } catch {
      envelope = undefined;
    }
    if (response.status === 401) throw new ManyChatError(401, null, `ManyChat refused the API token (401): ${reasonOf(envelope) ?? 'check MANYCHAT_API_TOKEN'}`);
    if (!response.ok) {
      const code = typeof envelope?.code === 'number' ? envelope.code : null;
      throw new ManyChatError(response.status, code, `ManyChat answered ${response.status}: ${reasonOf(envelope) ?? (text.slice(0, 200) || 'no details')}`);
    }
    // A 200 is a success only when the body says so.
    if (envelope?.status !== 'success') {
      const code = typeof envelope?.code === 'number' ? envelope.code : null;
      throw new ManyChatError(response.status, code, `ManyChat refused: ${reasonOf(envelope) ?? 'the answer is not a success'}`);
    }
    return envelope.data;
  }
}

/** ManyChat's message and its detail lines, as one sentence for the operator. */
function reasonOf(envelope: Envelope | undefined): string | null {
  if (!envelope || typeof envelope.message !== 'string') return null;
  const details = Array.isArray(envelope.details?.messages) ? envelope.details.messages.filter((m): m is string => typeof m === 'string') : [];
  const code = typeof envelope.code === 'number' ? ` (code ${envelope.code})` : '';
  return `${envelope.message}${code}${details.length ? ` — ${details.join('; ')}` : ''}`;
}

/** ManyChat takes `subscriber_id` as an integer; anything but digits cannot be a subscriber. */
function subscriberIdOf(subscriberId: string): number {
  const id = Number(subscriberId);
  if (!/^\d+$/.test(subscriberId) || !Number.isSafeInteger(id)) throw new ManyChatError(400, null, `"${subscriberId}" is not a ManyChat subscriber id (digits only)`);
  return id;
}
