import { Gauge, Histogram, type Registry } from 'prom-client';
import { CircuitBreaker, type BreakerOptions, type BreakerState } from './breaker';
import type { OutsideRateLimit } from './rate-limit';

/**
 * The one way a service calls an outside HTTP system (QPay, ManyChat, WooCommerce, Google Sheets,
 * the AI providers): a deadline on every try, retries with jittered back-off only where a repeat
 * is safe, `Retry-After` honoured, a circuit breaker per system, a pace shared by every process
 * (OutsideRateLimit), and `outside_call_duration_seconds` / `outside_breaker_state` on /metrics.
 * It returns every HTTP answer; what an answer means (ManyChat's 200 that says "error") is the
 * system's own client's to judge.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RetryOptions {
  /** Tries after the first. */
  retries: number;
  /** The first back-off; each next one doubles, with ±50% jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the answer goes back to the caller. */
  maxRetryAfterMs: number;
}

export interface OutsideSystemOptions {
  /** The system's name on the metrics and the breaker: `manychat`, `qpay`, `woocommerce`, `google-sheets`, `openai`. */
  system: string;
  baseUrl: string;
  /** Each try's deadline (a caller's `signal` may end the whole call sooner). */
  timeoutMs: number;
  retry?: Partial<RetryOptions>;
  breaker?: Partial<BreakerOptions>;
  /** Where the paces of requests that declare one are kept (shared by every process: see OutsideRateLimit). */
  paces?: OutsideRateLimit;
  /** Where the metrics go (the service's /metrics); none in a bare test. */
  registry?: Registry;
}

/** An outside system as a service declares it (ServiceContext's `outside`): its paces are kept in the infrastructure, its metrics are the service's. */
export type OutsideOptions = Omit<OutsideSystemOptions, 'registry' | 'paces'>;

/** What every call says of itself, whoever sends it (`call`, or an SDK through `run`). */
export interface OutsideWork {
  /** The metric's operation label: what the call does (`sendContent`, `createInvoice`). */
  operation: string;
  /**
   * Safe to send twice: a GET, or a write the system deduplicates. Only then are a timeout, a
   * reset connection or a server error tried again; a 429 or a refused connection (the system
   * did not take the call) is tried again either way.
   */
  idempotent: boolean;
  /** This call's per-try deadline, instead of the system's. */
  timeoutMs?: number;
  /**
   * Answers besides 429 by which the system turns a caller away for now (a marketplace's bot wall
   * answers 403): tried again like a 429, after its Retry-After or the back-off.
   */
  retryStatuses?: readonly number[];
  /** The caller's own deadline or cancel: no further try starts once it fires. */
  signal?: AbortSignal;
  /**
   * The system's limit this call counts against: `perSecond` calls of `bucket` per `account`
   * (ManyChat's 25 sendContent a second per page), kept across processes. A call whose turn is more
   * than `maxWaitMs` away (default 1 s) is not made: it fails as `paced`, and is tried again as
   * RetryOptions allow.
   */
  pace?: Pace;
}

export interface OutsideRequest extends OutsideWork {
  method: HttpMethod;
  /** Appended to the system's base URL. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * The system's own way of saying it did nothing (QPay's SYSTEM_BUSY): such an answer is tried
   * again even for a call that is not idempotent.
   */
  notTaken?: (answer: OutsideAnswer) => boolean;
}

/** One try that got an answer: its HTTP status and headers, and the value (or the SDK's error) it came with. */
type Tried<T> = { answer: number; headers: Headers | null; value: T | null; error?: unknown; retryAnyway: boolean };

export interface Pace {
  bucket: string;
  account: string;
  perSecond: number;
  /** Calls that may start at once before the pace applies (1: none); see OutsideRateLimit. */
  burst?: number;
  maxWaitMs?: number;
}

export interface OutsideAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export type OutsideFailure = 'timeout' | 'unreachable' | 'breaker_open' | 'paced' | 'abandoned';

/** No answer from the outside system: it timed out, could not be reached, its breaker is open, its pace is full, or the caller gave up. */
export class OutsideCallError extends Error {
  constructor(
    readonly system: string,
    readonly operation: string,
    readonly failure: OutsideFailure,
    message: string,
    readonly details: {
      /** For an open breaker: when a probe may go. */
      retryInMs?: number;
      /** The system never took the call (the connection was refused, or it was never sent): sending it again is safe. */
      notTaken?: boolean;
      /** For an unreachable system: the network's reason (`ECONNREFUSED`, `ENOTFOUND`, …). */
      cause?: string;
      /** For an open breaker: what the last failed try got (an OutsideAnswer, an SDK's error, or an OutsideCallError), for the caller to describe. */
      lastFailure?: unknown;
    } = {},
  ) {
    super(message);
    this.name = 'OutsideCallError';
  }

  /** For an open breaker, as an operator reads it: "calls to <system> are paused for N s after repeated failures". */
  pausedSentence(system: string): string {
    return `calls to ${system} are paused for ${Math.ceil((this.details.retryInMs ?? 0) / 1000)} s after repeated failures`;
  }
}

const DEFAULT_RETRY: RetryOptions = { retries: 2, baseDelayMs: 200, maxDelayMs: 5_000, maxRetryAfterMs: 30_000 };
const DEFAULT_BREAKER: BreakerOptions = { failuresToOpen: 5, openMs: 10_000 };
const DEFAULT_MAX_PACE_WAIT_MS = 1_000;
/** How late after its slot a paced call may still go, and how many slots it may miss before it fails as paced. */
const PACE_LATENESS_MS = 20;
const MISSED_SLOTS_MAX = 3;
/** Network failures before any byte was sent: the system cannot have taken the call. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export class OutsideSystem {
  readonly name: string;
  private readonly root: string;
  private readonly retry: RetryOptions;
  private readonly breaker: CircuitBreaker;
  private readonly metrics: OutsideMetrics | null;
  /** What the last failed try got: said again while the breaker keeps calls away. */
  private lastFailure: unknown = undefined;

  constructor(private readonly options: OutsideSystemOptions) {
    this.name = options.system;
    this.root = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.metrics = options.registry ? outsideMetrics(options.registry) : null;
    this.breaker = new CircuitBreaker({ ...DEFAULT_BREAKER, ...options.breaker });
    this.metrics?.breakers.set(this.name, this.breaker);
  }

  get baseUrl(): string {
    return this.root;
  }

  /** Each try's deadline unless a call sets its own. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  get breakerState(): BreakerState {
    return this.breaker.state;
  }

  /** The longest a call may take: every try at its deadline, each wait between them at its longest (a back-off or a Retry-After). */
  get callDeadlineMs(): number {
    let waits = 0;
    for (let retry = 0; retry < this.retry.retries; retry++) waits += Math.max(this.retry.maxRetryAfterMs, Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** retry * 1.5));
    return (this.retry.retries + 1) * this.options.timeoutMs + Math.ceil(waits);
  }

  /** Sends `request`, trying again as RetryOptions and the request's `idempotent` allow; any HTTP answer is returned. */
  async call(request: OutsideRequest): Promise<OutsideAnswer> {
    return this.tries(request, async (signal) => {
      const response = await fetch(`${this.root}${request.path}`, { method: request.method, headers: request.headers, body: request.body, signal });
      const answer: OutsideAnswer = { status: response.status, headers: response.headers, text: await response.text() };
      return { answer: answer.status, headers: answer.headers, value: answer, retryAnyway: answer.status >= 500 && request.notTaken?.(answer) === true };
    });
  }

  /**
   * A call an SDK makes (Google's Sheets client, OpenAI's): `work` gets the try's deadline as a
   * signal (the SDK's own timeout and retries set off, or above ours), and `statusOf` reads the
   * HTTP status and headers from the SDK's error, so the SDK's failures are judged, retried,
   * broken and counted as `call`'s are. The SDK's own error is thrown when the system answered.
   */
  async run<T>(request: OutsideWork, work: (signal: AbortSignal) => Promise<T>, statusOf: (error: unknown) => { status: number; headers?: Headers } | null): Promise<T> {
    return this.tries(request, async (signal) => {
      try {
        return { answer: 200, headers: null, value: await work(signal), retryAnyway: false };
      } catch (error) {
        const answered = statusOf(error);
        if (!answered) throw error;
        return { answer: answered.status, headers: answered.headers ?? null, value: null, error, retryAnyway: false };
      }
    });
  }

  /** Tries `attempt` as RetryOptions allow: the value of the last answer, or its error. */
  private async tries<T>(request: OutsideWork, attempt: (signal: AbortSignal) => Promise<Tried<T>>): Promise<T> {
    for (let n = 0; ; n++) {
      const outcome = await this.once(request, attempt);
      const again = n < this.retry.retries && this.retryable(outcome, request);
      const delay = again ? this.delayBefore(n, outcome) : null;
      if (delay === null || request.signal?.aborted) {
        if (outcome instanceof OutsideCallError) throw outcome;
        if ('error' in outcome) throw outcome.error;
        return outcome.value as T;
      }
      await sleep(delay, request.signal);
    }
  }

  private async once<T>(request: OutsideWork, attempt: (signal: AbortSignal) => Promise<Tried<T>>): Promise<Tried<T> | OutsideCallError> {
    const { operation, signal } = request;
    if (signal?.aborted) return new OutsideCallError(this.name, operation, 'abandoned', `${this.name} ${operation} abandoned: ${reasonOf(signal)}`);
    if (!this.breaker.admit()) {
      this.observe(operation, 'breaker_open', 0);
      const retryInMs = this.breaker.retryInMs;
      return new OutsideCallError(this.name, operation, 'breaker_open', `${this.name} is failing: calls are paused for ${Math.ceil(retryInMs / 1000)} s after repeated failures`, { retryInMs, lastFailure: this.lastFailure });
    }
    if (request.pace && !(await this.awaitTurn(request.pace, signal))) {
      this.breaker.abandoned();
      this.observe(operation, 'paced', 0);
      return new OutsideCallError(this.name, operation, 'paced', `${this.name} is at its pace of ${request.pace.perSecond} calls a second: try again shortly`, { notTaken: true });
    }
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    try {
      const tried = await attempt(signal ? AbortSignal.any([deadline, signal]) : deadline);
      if (tried.answer >= 500) {
        this.breaker.failed();
        this.lastFailure = 'error' in tried ? tried.error : tried.value;
      } else this.breaker.succeeded();
      this.observe(operation, outcomeOf(tried.answer), performance.now() - started);
      return tried;
    } catch (error) {
      const elapsed = performance.now() - started;
      if (signal?.aborted) {
        this.breaker.abandoned();
        this.observe(operation, 'abandoned', elapsed);
        return new OutsideCallError(this.name, operation, 'abandoned', `${this.name} ${operation} abandoned: ${reasonOf(signal)}`);
      }
      this.breaker.failed();
      const failure = deadline.aborted ? 'timeout' : 'unreachable';
      this.observe(operation, failure, elapsed);
      const cause = causeCode(error) ?? causeOf(error);
      const message = deadline.aborted ? `${this.name} did not answer ${operation} within ${timeoutMs} ms` : `${this.name} is unreachable (${cause})`;
      const failed = new OutsideCallError(this.name, operation, failure, message, { notTaken: NOT_CONNECTED.has(cause), cause });
      this.lastFailure = failed;
      return failed;
    }
  }

  /**
   * Takes this call's slot in the shared pace and waits for it; false when none is free within the
   * call's longest wait. A slot this process woke too late for (it was busy) is not used: going
   * then would bunch with the slots after it, so another is taken, a few times at most.
   */
  private async awaitTurn({ bucket, account, perSecond, burst = 1, maxWaitMs = DEFAULT_MAX_PACE_WAIT_MS }: Pace, signal?: AbortSignal): Promise<boolean> {
    if (!this.options.paces) throw new Error(`${this.name} declares a pace, but the system was given no place to keep paces`);
    // Per origin too: the same account at another address (a simulator) is another quota.
    const key = `${this.name}:${bucket}:${account}@${this.root}`;
    for (let slot = 0; slot < MISSED_SLOTS_MAX; slot++) {
      const wait = await this.options.paces.take(key, { perSecond, burst }, maxWaitMs);
      if (wait === null) return false;
      const due = performance.now() + wait;
      await sleep(wait, signal);
      if (performance.now() - due <= PACE_LATENESS_MS || signal?.aborted) return true;
    }
    return false;
  }

  /** A 429, a refused connection and what the system says it did not take are safe to send again; anything else lost or failed may have been taken. */
  private retryable(outcome: Tried<unknown> | OutsideCallError, { idempotent, retryStatuses }: OutsideWork): boolean {
    if (outcome instanceof OutsideCallError) {
      if (outcome.failure === 'abandoned' || outcome.failure === 'breaker_open') return false;
      return idempotent || outcome.details.notTaken === true;
    }
    if (outcome.answer === 429 || outcome.retryAnyway || retryStatuses?.includes(outcome.answer)) return true;
    return idempotent && (outcome.answer === 408 || outcome.answer >= 500);
  }

  /** The wait before the next try: the system's Retry-After when it gave one (null past the cap), else jittered back-off. */
  private delayBefore(attempt: number, outcome: Tried<unknown> | OutsideCallError): number | null {
    const asked = outcome instanceof OutsideCallError || !outcome.headers ? null : retryAfterMs(outcome.headers);
    if (asked !== null) return asked <= this.retry.maxRetryAfterMs ? asked : null;
    return Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt * (0.5 + Math.random()));
  }

  private observe(operation: string, outcome: string, ms: number): void {
    this.metrics?.duration.observe({ system: this.name, operation, outcome }, ms / 1000);
  }
}

/** How an answer is counted on the metrics. */
function outcomeOf(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'refused';
  return 'ok';
}

/** `Retry-After` (seconds or an HTTP date) or `retry-after-ms` (OpenAI's), in ms; null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const value = headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function causeCode(error: unknown): string | undefined {
  return ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: Error }).cause;
  return cause?.message ?? (error as Error).message;
}

function reasonOf(signal: AbortSignal): string {
  return (signal.reason as Error | undefined)?.message ?? 'aborted';
}

/** Waits `ms`; the caller's signal ends the wait early (the caller then stops). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

interface OutsideMetrics {
  duration: Histogram<'system' | 'operation' | 'outcome'>;
  breakers: Map<string, CircuitBreaker>;
}

const registered = new WeakMap<Registry, OutsideMetrics>();
const BREAKER_VALUES: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

/** The outside-call metrics of one registry, made once however many systems report to it. */
function outsideMetrics(registry: Registry): OutsideMetrics {
  let metrics = registered.get(registry);
  if (metrics) return metrics;
  const breakers = new Map<string, CircuitBreaker>();
  metrics = {
    breakers,
    duration: new Histogram({
      name: 'outside_call_duration_seconds',
      help: 'Calls to outside systems, each try: duration by system, operation and outcome',
      labelNames: ['system', 'operation', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'outside_breaker_state',
    help: "Each outside system's circuit breaker: 0 closed, 1 half-open, 2 open",
    labelNames: ['system'],
    registers: [registry],
    collect() {
      for (const [system, breaker] of breakers) this.set({ system }, BREAKER_VALUES[breaker.state]);
    },
  });
  registered.set(registry, metrics);
  return metrics;
}

/** The circuit breakers of the outside systems on this registry (one process's), by system: what its alerts report. */
export function outsideBreakers(registry: Registry): ReadonlyMap<string, CircuitBreaker> {
  return outsideMetrics(registry).breakers;
}
