import type { DynamicBlock } from '@bo/proto';
import { OutsideCallError, type OutsideOptions, type OutsideSystem, type Pace } from '@bo/platform/outside';

/**
 * ManyChat's public API (external-apis.md §2): bearer token `<page_id>:<secret>`, `/fb/...` paths,
 * `{status:"success"|"error", ...}` envelopes — and `status` is checked on every answer, because an
 * HTTP 200 may carry `"status":"error"`. Calls go through the platform's outside client: a send is
 * paced per page across every process and tried again only when ManyChat did not take it (a 429,
 * a refused connection); ManyChat has no idempotency key, so a send that timed out or met a server
 * error is not repeated here: the delivery's outside effect tries it later (ADR 14).
 */

export interface ManyChatSettings {
  baseUrl: string;
  timeoutMs: number;
}

/**
 * Sends a second per page, every process together: ManyChat allows 25 sendContent calls a second
 * per account (external-apis.md §2) and counts them as they arrive. The margin (26 slots span
 * 1.25 s) absorbs sends that arrive bunched because a process or the network was busy. Template
 * sends share the slots: nothing says ManyChat counts them apart.
 */
export const SENDS_PER_SECOND = 20;

/** ManyChat's code for "outside the 24-hour window" (a free-form send; the message tags that once passed it are deprecated). */
export const OUTSIDE_WINDOW_CODE = 3011;

/** ManyChat refused, failed or could not be reached. `status` 0: no answer (network or timeout). */
export class ManyChatError extends Error {
  constructor(
    readonly status: number,
    /** ManyChat's own error code (3011, 3021, 304x…) when it gave one. */
    readonly code: number | null,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
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

/** ManyChat refused a utility template (sendTemplate answered 400): a new template fixes it, not a retry. */
export class TemplateRefused extends ManyChatError {
  constructor(refusal: ManyChatError) {
    super(refusal.status, refusal.code, refusal.message, { cause: refusal });
    this.name = 'TemplateRefused';
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

/** ManyChat as an outside system: its name on the metrics, its address and each try's deadline. */
export function manyChatSystem(settings: ManyChatSettings): OutsideOptions {
  // ManyChat sends no Retry-After (external-apis.md §2): a long one is not ManyChat's.
  return { system: 'manychat', baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs, retry: { maxRetryAfterMs: 2_000 } };
}

export class ManyChatClient {
  /** The page the token belongs to: the account ManyChat's limits count against. */
  private readonly pageId: string;

  constructor(
    private readonly system: OutsideSystem,
    private readonly token: string,
  ) {
    this.pageId = token.split(':', 1)[0];
  }

  /**
   * The longest one sendContent may take: every try at its deadline, the back-offs between them at
   * their largest, and a wait for its turn in the page's pace. What a caller's claim must outlast.
   */
  get sendDeadlineMs(): number {
    return this.system.callDeadlineMs + MAX_PACE_WAIT_MS;
  }

  /** Sends a Dynamic Block to a subscriber, inside the 24-hour window only (3011 outside). Aborting `signal` stops it (no further tries). */
  async sendContent(subscriberId: string, data: DynamicBlock, signal?: AbortSignal): Promise<void> {
    await this.request('sendContent', 'POST', '/fb/sending/sendContent', { subscriber_id: subscriberIdOf(subscriberId), data }, { signal, pace: this.sendingPace });
  }

  /** Starts one of the bot's flows for a subscriber (inside the 24-hour window; ManyChat caps it at 100 a subscriber an hour). */
  async sendFlow(subscriberId: string, flowNamespace: string, signal?: AbortSignal): Promise<void> {
    await this.request('sendFlow', 'POST', '/fb/sending/sendFlow', { subscriber_id: subscriberIdOf(subscriberId), flow_ns: flowNamespace }, { signal, pace: this.sendingPace });
  }

  /**
   * Sends an approved Messenger utility template, the only message Meta takes outside the 24-hour
   * window since it deprecated the message tags (external-apis.md §2, "Changed in 2026").
   * ASSUMED FORM: ManyChat publishes no call for it, so this is the likeliest one, and the
   * simulator plays exactly it (docs/operations.md): `POST /fb/sending/sendTemplate` with
   * `{subscriber_id, template_name, variables: {<placeholder>: <text>}}` (named placeholders, as
   * Meta's utility templates have; the template's own language), answered in sendContent's
   * envelopes and counted with its sends.
   */
  async sendTemplate(subscriberId: string, templateName: string, variables: Record<string, string>, signal?: AbortSignal): Promise<void> {
    const body = { subscriber_id: subscriberIdOf(subscriberId), template_name: templateName, variables };
    try {
      await this.request('sendTemplate', 'POST', '/fb/sending/sendTemplate', body, { signal, pace: this.sendingPace });
    } catch (error) {
      // A 400 to this call is ManyChat refusing the template itself (not approved, renamed, a placeholder it lacks).
      if (error instanceof ManyChatError && error.status === 400) throw new TemplateRefused(error);
      throw error;
    }
  }

  private get sendingPace(): Pace {
    return { bucket: 'sendContent', account: this.pageId, perSecond: SENDS_PER_SECOND, maxWaitMs: MAX_PACE_WAIT_MS };
  }

  /** The page the token belongs to (the status card's page name): a short wait. */
  async getInfo(timeoutMs = 3_000): Promise<PageInfo> {
    const data = (await this.request('getInfo', 'GET', '/fb/page/getInfo', undefined, { timeoutMs })) as { id?: unknown; name?: unknown } | undefined;
    return { id: String(data?.id ?? ''), name: String(data?.name ?? '') };
  }

  private async request(operation: string, method: 'GET' | 'POST', path: string, body: unknown, options: { signal?: AbortSignal; timeoutMs?: number; pace?: Pace }): Promise<unknown> {
    let answer;
    try {
      answer = await this.system.call({
        operation,
        method,
        path,
        headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        idempotent: method === 'GET',
        ...options,
      });
    } catch (error) {
      if (!(error instanceof OutsideCallError)) throw error;
      // The cause goes along: a send never made (paced, breaker open) is not charged to a delivery's tries.
      const cause = { cause: error };
      if (error.failure === 'abandoned') throw new ManyChatError(0, null, `ManyChat send abandoned: ${error.message}`, cause);
      if (error.failure === 'paced') throw new ManyChatError(429, null, error.message, cause);
      if (error.failure === 'breaker_open') throw new ManyChatError(503, null, error.message, cause);
      throw new ManyChatError(0, null, error.failure === 'timeout' ? `ManyChat did not answer within ${options.timeoutMs ?? this.system.timeoutMs} ms` : `ManyChat is unreachable (${error.message})`, cause);
    }
    let envelope: Envelope | undefined;
    try {
      envelope = answer.text ? (JSON.parse(answer.text) as Envelope) : undefined;
    } catch {
      envelope = undefined;
    }
    if (answer.status === 401) throw new ManyChatError(401, null, `ManyChat refused the API token (401): ${reasonOf(envelope) ?? 'check MANYCHAT_API_TOKEN'}`);
    const code = typeof envelope?.code === 'number' ? envelope.code : null;
    if (answer.status < 200 || answer.status >= 300) {
      throw new ManyChatError(answer.status, code, `ManyChat answered ${answer.status}: ${reasonOf(envelope) ?? (answer.text.slice(0, 200) || 'no details')}`);
    }
    // A 200 is a success only when the body says so.
    if (envelope?.status !== 'success') throw new ManyChatError(answer.status, code, `ManyChat refused: ${reasonOf(envelope) ?? 'the answer is not a success'}`);
    return envelope.data;
  }
}

/** How long a send waits for its turn in the page's pace before it is left for a later try. */
const MAX_PACE_WAIT_MS = 1_000;

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
