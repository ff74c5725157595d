import { RETRY_AFTER_SECONDS, type Dependency } from '../errors';
import type { Logger } from '../logging';
import { briefly } from '../state-log';

/** A readiness check: resolves when the dependency answers, throws when it does not. */
export type ReadinessCheck = {
  name: string;
  check: () => Promise<void>;
  /** What a failure means and what to do, for the one line that reports it (the platform's own checks have theirs). */
  about?: { unavailable: string; remedy: string };
};

export interface ReadinessResult {
  name: string;
  ok: boolean;
  error?: string;
}

/** The platform's checks (runtime.ts, eventsReadinessCheck): what their failure means and what to do. */
const KNOWN: Record<string, { unavailable: string; remedy: string }> = {
  database: { unavailable: 'the database is unreachable', remedy: 'check PostgreSQL and DATABASE_URL' },
  cache: { unavailable: 'the cache is unreachable', remedy: 'check Redis and REDIS_URL' },
  events: { unavailable: 'the event bus is down', remedy: 'check RabbitMQ and AMQP_URL (events wait in the outbox meanwhile)' },
};

/**
 * How long a check may take before it counts as failing: a database that accepts a connection and
 * then never answers (a hung server, a dropped network path) would otherwise hold /ready, and the
 * watch's next look, for as long as the socket lives.
 */
export const READINESS_CHECK_DEADLINE_MS = 5_000;

/** The readiness check that covers a dependency a failed request named (transientDependency). */
const CHECK_OF: Partial<Record<Dependency, string>> = { database: 'database', cache: 'cache', 'message broker': 'events' };

/**
 * Runs the readiness checks and logs their state changes, not each answer: when a check first
 * fails, one warn line naming it, its error and what to do; when every check passes again, one
 * info line. While not ready it looks again every RETRY_AFTER_SECONDS by itself, so the recovery
 * is logged even when nobody probes /ready (the embedded run), and a request refused because a
 * dependency is away (`noticed`) starts it looking.
 */
export class ReadinessWatch {
  private readonly failing = new Map<string, string>();
  private notReadySince?: number;
  private started = 0;
  private applied = 0;
  private timer?: NodeJS.Timeout;
  private checking?: Promise<ReadinessResult[]>;
  private closed = false;

  constructor(
    private readonly checks: readonly ReadinessCheck[],
    private readonly logger: Logger,
    private readonly deadlineMs = READINESS_CHECK_DEADLINE_MS,
  ) {}

  /** Every check's result now; a change from the last results is logged. */
  async check(): Promise<ReadinessResult[]> {
    const order = ++this.started;
    const results = await Promise.all(
      this.checks.map(async ({ name, check }): Promise<ReadinessResult> => {
        let deadline: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error(`no answer within ${this.deadlineMs} ms`)), this.deadlineMs);
        });
        try {
          await Promise.race([check(), late]);
          return { name, ok: true };
        } catch (error) {
          return { name, ok: false, error: briefly(error) };
        } finally {
          clearTimeout(deadline);
        }
      }),
    );
    // Two checks at once (a probe and the watch's own): an older answer never undoes a newer one.
    if (order > this.applied) {
      this.applied = order;
      this.apply(results);
    }
    return results;
  }

  /**
   * Whether a refusal for want of `dependency` is already explained by the not-ready line (then it
   * is logged at debug): its check fails, or (a connection refused, another service answering 503)
   * the process is not ready anyway.
   */
  knowsDown(dependency: Dependency): boolean {
    const name = CHECK_OF[dependency];
    return name !== undefined ? this.failing.has(name) : this.failing.size > 0;
  }

  /** A request was refused because `dependency` is away: look now, unless already known or looking. */
  noticed(dependency: Dependency): void {
    const name = CHECK_OF[dependency];
    if (this.closed || !name || this.failing.has(name) || this.checking || !this.checks.some((check) => check.name === name)) return;
    this.checking = this.check().finally(() => (this.checking = undefined));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private apply(results: ReadinessResult[]): void {
    for (const result of results) {
      const known = this.failing.has(result.name);
      if (!result.ok && !known) {
        const about = this.checks.find((check) => check.name === result.name)?.about ?? KNOWN[result.name] ?? { unavailable: `the ${result.name} check fails`, remedy: `see what ${result.name} depends on` };
        this.failing.set(result.name, result.error!);
        this.notReadySince ??= Date.now();
        this.logger.warn(
          { dependency: result.name, error: result.error },
          `not ready: ${about.unavailable}: ${result.error}; /ready answers 503 (and requests that need it 503 with Retry-After) until it is back: ${about.remedy}`,
        );
      } else if (result.ok && known) {
        this.failing.delete(result.name);
        if (this.failing.size > 0) this.logger.info({ dependency: result.name, stillFailing: [...this.failing.keys()] }, `${result.name} answers again; still not ready`);
      }
    }
    if (this.failing.size === 0 && this.notReadySince !== undefined) {
      this.logger.info({ notReadyForMs: Date.now() - this.notReadySince }, 'ready again');
      this.notReadySince = undefined;
    }
    this.follow();
  }

  /** While not ready, look again every RETRY_AFTER_SECONDS (a probe may look more often; that is fine). */
  private follow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed || this.failing.size === 0) return;
    this.timer = setTimeout(() => void this.check(), RETRY_AFTER_SECONDS * 1000);
    this.timer.unref();
  }
}
