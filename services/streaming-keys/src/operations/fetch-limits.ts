import { AppError } from '@bo/platform';
import type { AttemptCounter, Cache } from '@bo/platform/cache';

/** Failed mailbox sign-ins (within FAILURES_WINDOW_MS, no sign-in working in between) that pause an account's mailbox. */
export const MAILBOX_FAILURES_MAX = 3;
const FAILURES_WINDOW_MS = 15 * 60_000;

/** A refusal that says when to try again: `details.retryAt`, and the route's Retry-After header. */
export const tryAgainAt = (status: 429 | 503, code: string, message: string, at: Date) => new AppError(status, code, message, { retryAt: at.toISOString() });

/** When a refusal said to try again, or null. */
export function retryAtOf(error: unknown): Date | null {
  const at = error instanceof AppError ? (error.details as { retryAt?: unknown } | undefined)?.retryAt : undefined;
  return typeof at === 'string' ? new Date(at) : null;
}

export interface FetchLimitSettings {
  /** A key fetches at most once this often (CODE_FETCH_KEY_INTERVAL_MS); its QR is made at most once too. */
  keyIntervalMs: number;
  /** How long a mailbox is left alone after MAILBOX_FAILURES_MAX failed sign-ins (MAILBOX_PAUSE_MS). */
  pauseMs: number;
}

/**
 * What a customer's clicks may cost (issue 18 §2), kept in Redis (the cache's key space) so every
 * replica counts the same: per key, one mailbox read per interval; per mailbox, a breaker that
 * stops signing in after three failed sign-ins, so a customer pressing the button can never make
 * the mail server lock the business's account. Each refusal says when to try again.
 */
export class FetchLimits {
  constructor(
    private readonly deps: { counter: AttemptCounter; cache: Cache; settings: FetchLimitSettings },
  ) {}

  /**
   * Takes the one turn of `what` (e.g. `fetch:41`, `qr:41`) for this interval: null when taken,
   * else when the next turn comes. Parallel callers: exactly one gets it.
   */
  async takeTurn(what: string): Promise<Date | null> {
    const { counter, cache, settings } = this.deps;
    if (await counter.reserve([{ key: `turn:${what}`, max: 1 }], settings.keyIntervalMs)) {
      const next = new Date(Date.now() + settings.keyIntervalMs);
      await cache.set(`next-turn:${what}`, next.toISOString(), settings.keyIntervalMs / 1000);
      return null;
    }
    const next = await cache.get(`next-turn:${what}`);
    // Taken a moment ago by a caller that has not written its time yet: a whole interval is the most it can be.
    return next ? new Date(next) : new Date(Date.now() + settings.keyIntervalMs);
  }

  /** Until when the mailbox is left alone after failed sign-ins, or null when it may be tried. */
  async mailboxPausedUntil(mailbox: string): Promise<Date | null> {
    const until = await this.deps.cache.get(`mailbox-paused:${mailbox.toLowerCase()}`);
    return until && Date.parse(until) > Date.now() ? new Date(until) : null;
  }

  /** Counts a failed sign-in; the third in the window pauses the mailbox and answers until when. */
  async signInFailed(mailbox: string): Promise<Date | null> {
    const { counter, cache, settings } = this.deps;
    const failures = `mailbox-failures:${mailbox.toLowerCase()}`;
    // Below the ceiling: the first failures are only counted.
    if (await counter.reserve([{ key: failures, max: MAILBOX_FAILURES_MAX - 1 }], FAILURES_WINDOW_MS)) return null;
    const until = new Date(Date.now() + settings.pauseMs);
    await cache.set(`mailbox-paused:${mailbox.toLowerCase()}`, until.toISOString(), settings.pauseMs / 1000);
    await counter.reset(failures);
    return until;
  }

  /** A sign-in that worked starts the count afresh. */
  async signInSucceeded(mailbox: string): Promise<void> {
    await this.deps.counter.reset(`mailbox-failures:${mailbox.toLowerCase()}`);
  }
}
