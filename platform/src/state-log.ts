import { isTransientError } from './errors';
import type { Logger } from './logging';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Where the platform's background parts (outbox relay, outside effects, transports) write a line:
 * a message, its fields and its level (warn when not given). `levelLogOf(logger)` writes to pino.
 */
export type LevelLog = (message: string, detail?: Record<string, unknown>, level?: LogLevel) => void;

export function levelLogOf(logger: Logger): LevelLog {
  return (message, detail, level = 'warn') => logger[level](detail ?? {}, message);
}

export interface StateLogOptions {
  /** What fails, as the first line says it: "the outbox relay cannot read its outbox". */
  failing: string;
  /** What happens meanwhile and what to do, after the error: "events wait in the outbox until the database is back". */
  meanwhile: string;
  /** The one line when it works again: "the outbox relay works again". */
  recovered: string;
  /** Fields on every line (a schema, a service, a run). */
  detail?: Record<string, unknown>;
}

/**
 * A failure that lasts (a dependency away) logged as two state changes, not once per attempt: the
 * first failure at warn, naming the error and what to do (at error when the failure is not a
 * dependency away, isTransientError: a bug or a broken setup needs a person); each repeat at debug;
 * the first success after it at info, saying how long it failed and how often.
 */
export class StateLog {
  private since?: number;
  private failures = 0;

  constructor(
    private readonly log: LevelLog,
    private readonly options: StateLogOptions,
  ) {}

  get failing(): boolean {
    return this.since !== undefined;
  }

  failed(error: unknown, detail?: Record<string, unknown>): void {
    const fields = { ...this.options.detail, ...detail, error: briefly(error) };
    this.failures++;
    if (this.since !== undefined) return this.log(`${this.options.failing} (still)`, fields, 'debug');
    this.since = Date.now();
    this.log(`${this.options.failing}: ${fields.error}; ${this.options.meanwhile}`, fields, isTransientError(error) ? 'warn' : 'error');
  }

  succeeded(detail?: Record<string, unknown>): void {
    if (this.since === undefined) return;
    this.log(this.options.recovered, { ...this.options.detail, ...detail, failedForMs: Date.now() - this.since, failures: this.failures }, 'info');
    this.since = undefined;
    this.failures = 0;
  }
}

/**
 * An error's message on one line, at most 300 characters; of Prisma's "Invalid `prisma.x()`
 * invocation: … Message: `…`" only the driver's message.
 */
export function briefly(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  let line = text
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  if (/^Invalid `[^`]+` invocation:/.test(line)) line = /Message: `([^`]+)`/.exec(line)?.[1] ?? line.replace(/^Invalid `[^`]+` invocation:\s*/, '');
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
