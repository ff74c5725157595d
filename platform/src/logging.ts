import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

interface RequestContext {
  correlationId: string;
  /** The service whose request or event this is (several share one process in the embedded run). */
  service?: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** The header that carries the correlation id from the gateway through HTTP calls and events. */
export const CORRELATION_HEADER = 'x-correlation-id';

export function runWithCorrelationId<T>(correlationId: string, fn: () => T, service?: string): T {
  return context.run({ correlationId, service }, fn);
}

export function currentCorrelationId(): string | null {
  return context.getStore()?.correlationId ?? null;
}

/** The service whose request or event the current code serves, when known. */
export function currentService(): string | null {
  return context.getStore()?.service ?? null;
}

/** Secrets never reach the logs (ASVS 16.2.5): headers and body fields that carry them are masked. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-internal-identity"]',
  'res.headers["set-cookie"]',
  // at the top of an entry and one level down (pino's `*` matches exactly one level)
  ...['password', 'secret', 'token', 'clientSecret', 'apiKey', 'private_key'].flatMap((field) => [field, `*.${field}`]),
];

/**
 * `json`: one JSON object per line (the distributed processes, containers, anything not a
 * terminal). `pretty`: one readable line per entry, for a person watching `make start`.
 */
export type LogFormat = 'json' | 'pretty';

export function createLogger(service: string, level = 'info', format: LogFormat = 'json', out: { write(text: string): unknown } = process.stdout): Logger {
  const options = {
    name: service,
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
  };
  if (format === 'pretty') return pino(options, prettyLines(out));
  // pino's own stdout writer is faster than a stream; another destination (a test's) is taken as given.
  return out === process.stdout ? pino(options) : pino(options, out as DestinationStream);
}

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** "14:03:07 WARN  pricing: message  key=value …": pino's JSON line made readable, errors by their message. */
function prettyLines(out: { write(text: string): unknown }) {
  return {
    write(line: string) {
      const { level, time, name, msg, pid: _pid, hostname: _hostname, ...fields } = JSON.parse(line) as Record<string, unknown>;
      const details = Object.entries(fields)
        .map(([key, value]) => `${key}=${describe(value)}`)
        .join(' ');
      const clock = new Date(time as number).toTimeString().slice(0, 8);
      out.write(`${clock} ${(levelNames[level as number] ?? String(level)).padEnd(5)} ${name as string}: ${msg as string}${details ? `  ${details}` : ''}\n`);
    },
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return /\s/.test(value) ? JSON.stringify(value) : value;
  if (value && typeof value === 'object' && 'message' in value) return JSON.stringify((value as { message: unknown }).message);
  return JSON.stringify(value);
}
