import { z } from 'zod';

/**
 * Request fields every contract shares, so hostile values are refused the same way everywhere
 * (issue 18 §2): ids within PostgreSQL's integer, and numbers that are numbers. A 400 names the
 * field, before any handler runs.
 */

/** The largest PostgreSQL `integer`: an id past it could only fail in the database (a 500). */
export const INT32_MAX = 2_147_483_647;

/**
 * Number fields that take the number's text on purpose (a form's typed text, the chat's custom
 * fields, which ManyChat sends as text by nature). Everything else refuses `"5"`; the fuzz test of
 * every route reads this registry to know which fields may.
 */
export const textNumbers = z.registry<{ why: string }>();

/**
 * A row's integer id in the path: digits only (no `1e3`, `0x10`, `-1`), 1 … 2^31−1. A path is
 * text; a caller building one (apiPath, a service client) may give the number.
 */
export const idParam = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z.string().regex(/^[1-9]\d{0,9}$/, 'must be a positive whole number').transform(Number).pipe(z.number().max(INT32_MAX, 'is too large')),
);

/** A row's integer id in a JSON body: a number (never text, true or null), 1 … 2^31−1. */
export const idField = (message = 'must be a positive whole number') =>
  z.number({ error: message }).int(message).positive(message).max(INT32_MAX, 'is too large');

/**
 * A whole number in a JSON body, as a number only: `true`, `null`, `[]` or `"5"` are refused
 * (z.coerce would have made 1, 0, 0 and 5 of them). Bounds are the caller's (.min, .max).
 */
export const wholeNumber = (message: string) => z.number({ error: message }).int(message);

/**
 * A whole number a form sends as the text typed in, on purpose: a number, or digits (spaces
 * trimmed); anything else is refused with `message`. `target` holds the bounds.
 */
export function wholeNumberFromText<T extends z.ZodType<number, number>>(target: T, message: string, why: string) {
  const schema = z
    .union([z.string().trim().regex(/^-?\d+$/, message).transform(Number), z.number({ error: message })], { error: message })
    .pipe(target);
  textNumbers.add(schema, { why });
  return schema;
}
