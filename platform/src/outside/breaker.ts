/** closed: calls go; open: calls are refused at once; half-open: one probe call goes. */
export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Failures in a row (no answer, a timeout, a server error) that open it. */
  failuresToOpen: number;
  /** How long it stays open before one probe may go. */
  openMs: number;
}

/**
 * One outside system's circuit breaker, in this process: after `failuresToOpen` failures in a row
 * it opens, so callers fail at once instead of each waiting out a timeout against a system that is
 * down; after `openMs` one call goes as a probe, and its outcome closes or reopens it.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  /** When it last left closed (kept while it goes open, half-open and open again): how long the system has been failing. */
  private notClosedSince: number | null = null;
  private probing = false;

  constructor(
    private readonly options: BreakerOptions,
    private readonly onChange: (state: BreakerState) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.options.openMs ? 'half-open' : 'open';
  }

  /** Whether a call may go now; in half-open, only the first caller becomes the probe. */
  admit(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.probing) return false;
    this.probing = true;
    this.onChange('half-open');
    return true;
  }

  /** Milliseconds until a probe may go (0 when closed or half-open). */
  get retryInMs(): number {
    return this.openedAt === null ? 0 : Math.max(0, this.options.openMs - (this.now() - this.openedAt));
  }

  /** Since when it has not been closed (epoch ms), or null while closed. */
  get openSince(): number | null {
    return this.notClosedSince;
  }

  /** The system answered (a refusal or a rate limit included: it is up). */
  succeeded(): void {
    const wasOpen = this.openedAt !== null;
    this.failures = 0;
    this.openedAt = null;
    this.notClosedSince = null;
    this.probing = false;
    if (wasOpen) this.onChange('closed');
  }

  /** No answer, a timeout or a server error. */
  failed(): void {
    this.failures += 1;
    if (this.probing || this.failures >= this.options.failuresToOpen) {
      this.openedAt = this.now();
      this.notClosedSince ??= this.openedAt;
      this.probing = false;
      this.onChange('open');
    }
  }

  /** The call gave no verdict (its caller gave up first): a probe may go again. */
  abandoned(): void {
    this.probing = false;
  }
}
