/** The run loop shared by the outbox relay, the outside-effect runner and the PostgreSQL transport's consumers. */

export interface PollerOptions {
  /** One pass; resolves true when more work is due at once (a full batch). */
  pass: () => Promise<boolean>;
  /** Pause between passes when nobody nudges. */
  intervalMs: number;
  onError?: (error: unknown) => void;
}

/**
 * Runs `pass` repeatedly: at once after `nudge()`, again while it reports more work, otherwise
 * every `intervalMs` (the back-up for a lost nudge). Never two passes at a time.
 */
export class Poller {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private started = false;

  constructor(private readonly options: PollerOptions) {}

  get isRunning(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.nudge();
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.started = false;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a pass now (or right after the one in progress). */
  nudge(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.started) this.timer = setTimeout(() => this.nudge(), this.options.intervalMs);
    });
  }

  /** Nudges after `ms` (e.g. when a retried message becomes due), unless stopped by then. */
  nudgeIn(ms: number): void {
    setTimeout(() => this.nudge(), ms).unref();
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      try {
        if (await this.options.pass()) this.again = true;
      } catch (error) {
        this.options.onError?.(error);
      }
    } while (this.again && this.started);
  }
}
