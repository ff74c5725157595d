import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

interface RequestContext {
  correlationId: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** The header that carries the correlation id from the gateway through HTTP calls and events. */
export const CORRELATION_HEADER = 'x-correlation-id';

export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return context.run({ correlationId }, fn);
}

export function currentCorrelationId(): string | null {
  return context.getStore()?.correlationId ?? null;
}

/** Secrets never reach the logs (ASVS 16.2.5): headers and body fields that carry them are masked. */
const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-internal-identity"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.token',
  '*.clientSecret',
  '*.apiKey',
  '*.private_key',
];

export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    name: service,
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
  });
}
