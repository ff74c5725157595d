import { ZodError, type z } from 'zod';

/**
 * The one error type: a code for programs, an HTTP status, and a message safe to show a person.
 * Expected business outcomes (no free slot, already paid) are results, not errors.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'bad_request', message, details);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Admin access required') => new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string, details?: unknown) => new AppError(409, 'conflict', message, details);
export const tooManyRequests = (message = 'Too many requests') => new AppError(429, 'rate_limited', message);
export const serviceUnavailable = (message: string, details?: unknown) => new AppError(503, 'unavailable', message, details);

/** The reply body of every error: `{ error, details? }`. */
export interface ErrorReply {
  error: string;
  details?: unknown;
}

type Issue = ZodError['issues'][number];

/**
 * The issues a person should read: for a value that matched no alternative of a union, those of
 * the alternative it came closest to (fewest issues), so `{ rowIndex: -1 }` is told about
 * rowIndex rather than about every field of the other form.
 */
function readableIssues(issues: Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !('errors' in issue) || issue.errors.length === 0) return [issue];
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return readableIssues(closest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }) as Issue));
  });
}

/** Turns a zod failure into a 400 whose message names the first bad field. */
export function fromZodError(error: ZodError, where: string): AppError {
  const issues = readableIssues(error.issues);
  const first = issues[0];
  const field = first?.path.length ? first.path.join('.') : where;
  const details = issues.map((issue) => ({ field: issue.path.join('.') || where, message: issue.message }));
  return badRequest(`Invalid ${where}: ${field}: ${first?.message ?? 'invalid value'}`, details);
}

/** Validates a request part with its schema; bad input becomes a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' | 'headers' = 'body'): z.infer<S> {
  // Absent means empty; a JSON `null` is judged as sent (a body of the wrong type is a 400).
  const result = schema.safeParse(value === undefined ? {} : value);
  if (!result.success) throw fromZodError(result.error, where);
  return result.data;
}

export function isZodError(error: unknown): error is ZodError {
  return error instanceof ZodError;
}

/** What a transient failure says is down, for a reply or a log line. */
export type Dependency = 'database' | 'cache' | 'message broker' | 'network';

// Prisma's own codes for "the server is away": not reachable, timed out, closed, pool timeout.
const PRISMA_TRANSIENT = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// The kinds @prisma/adapter-pg gives a driver failure (meta.driverAdapterError.cause.kind).
const ADAPTER_TRANSIENT = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
const NOT_MADE = new Set(['paced', 'breaker_open']);
// What pg, pg-pool, ioredis and amqplib (and our RabbitMQ transport) say when the connection is gone; they set no code.
const MESSAGES: [RegExp, Dependency][] = [
  [/^Connection terminated|not queryable|timeout exceeded when trying to connect|Can't reach database server/, 'database'],
  [/^Connection is closed\.|Reached the max retries per request limit|Stream isn't writeable/, 'cache'],
  [/^Channel closed|^Connection closed|^Channel ended|rabbitmq connection lost|no rabbitmq connection within/, 'message broker'],
];

/** A PostgreSQL SQLSTATE that says "the server is away for now": connection exceptions, shutdown, too many connections. */
function transientSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code);
}

/** SQLSTATEs of two writes that met: serialization failure, deadlock, a lock not available at once. */
const CONTENTION_SQL_STATES = new Set(['40001', '40P01', '55P03']);

/**
 * Whether a failure is contention between writes made at the same time (a serialization failure, a
 * deadlock, a lock taken elsewhere): nothing is down, and the same change tried again can succeed.
 * Consumers and runs retry it in place like an outage (isTransientError); a request is answered
 * 409 (contentionConflict), never "the database is unavailable".
 */
export function isContention(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { code?: unknown; severity?: unknown; cause?: unknown; errors?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } };
  if (e.code === 'P2034') return true; // Prisma: "write conflict or a deadlock"
  const adapter = e.meta?.driverAdapterError?.cause;
  if (adapter?.kind === 'TransactionWriteConflict') return true;
  const sqlState = adapter ? (adapter.originalCode ?? adapter.code) : typeof e.severity === 'string' ? e.code : undefined;
  if (typeof sqlState === 'string' && CONTENTION_SQL_STATES.has(sqlState)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isContention(inner, depth + 1))) return true;
  return isContention(e.cause, depth + 1);
}

/** The 409 a request gets when its write met another made at the same time (isContention). */
export const contentionConflict = () =>
  conflict('Another change to the same data was being saved at the same moment, so this one was not saved: try again');

/**
 * Which dependency a failure says is down for now (PostgreSQL, Redis, RabbitMQ, a connection,
 * another of our services answering 503),
 * or null when the failure is the code's own. The one judge of "retry later, it is not you":
 * consumers retry such failures in place without counting them, outside effects do not charge
 * them, and the HTTP error handler answers them 503 with Retry-After instead of 500.
 */
export function transientDependency(error: unknown, depth = 0): Dependency | null {
  if (!error || typeof error !== 'object' || depth > 5) return null;
  const e = error as { code?: unknown; severity?: unknown; message?: unknown; cause?: unknown; errors?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown; originalCode?: unknown } } } };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && PRISMA_TRANSIENT.has(code) && /^P\d{4}$/.test(code)) return 'database';
  const adapter = e.meta?.driverAdapterError?.cause;
  if (adapter) {
    if (typeof adapter.kind === 'string' && ADAPTER_TRANSIENT.has(adapter.kind)) return 'database';
    const sqlState = adapter.originalCode ?? adapter.code;
    if (typeof sqlState === 'string' && transientSqlState(sqlState)) return 'database';
  }
  // pg's DatabaseError carries the server's SQLSTATE with a severity.
  if (code && typeof e.severity === 'string' && transientSqlState(code)) return 'database';
  if (code && SOCKET_CODES.has(code)) return 'network';
  // Another of our services could not be reached, or answered that its own dependency is down (service-client.ts).
  if ((error as { name?: unknown }).name === 'ServiceCallError' && (error as { status?: unknown }).status === 503) return 'network';
  // An outside call that was never made: its system's pace is full or its breaker open (outside/outside-system.ts).
  if ((error as { name?: unknown }).name === 'OutsideCallError' && NOT_MADE.has((error as { failure?: unknown }).failure as string)) return 'network';
  const message = typeof e.message === 'string' ? e.message : '';
  for (const [pattern, dependency] of MESSAGES) if (pattern.test(message)) return dependency;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const found = transientDependency(inner, depth + 1);
      if (found) return found;
    }
  }
  return transientDependency(e.cause, depth + 1);
}

/** Whether a failure is worth the same try again later: a dependency down, or writes that met (isContention). */
export function isTransientError(error: unknown): boolean {
  return transientDependency(error) !== null || isContention(error);
}

/** Seconds a caller is asked to wait (Retry-After) when a dependency is down. */
export const RETRY_AFTER_SECONDS = 5;

const DEPENDENCY_NAMES: Record<Dependency, string> = {
  database: 'The database',
  cache: 'The cache',
  'message broker': 'The message broker',
  network: 'A service this request needs',
};

/** The 503 a request gets while a dependency is down; the reply carries Retry-After. */
export function dependencyUnavailable(dependency: Dependency): AppError {
  return new AppError(503, 'unavailable', `${DEPENDENCY_NAMES[dependency]} is unavailable, try again shortly`);
}
