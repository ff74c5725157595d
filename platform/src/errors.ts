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

/** Turns a zod failure into a 400 whose message names the first bad field. */
export function fromZodError(error: ZodError, where: string): AppError {
  const first = error.issues[0];
  const field = first?.path.length ? first.path.join('.') : where;
  const details = error.issues.map((issue) => ({ field: issue.path.join('.') || where, message: issue.message }));
  return badRequest(`Invalid ${where}: ${field}: ${first?.message ?? 'invalid value'}`, details);
}

/** Validates a request part with its schema; bad input becomes a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'params' | 'headers' = 'body'): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw fromZodError(result.error, where);
  return result.data;
}

export function isZodError(error: unknown): error is ZodError {
  return error instanceof ZodError;
}
