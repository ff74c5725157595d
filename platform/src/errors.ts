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
