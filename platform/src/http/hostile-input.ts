import { badRequest } from '../errors';

/**
 * What an anonymous caller may send a public webhook: the chat flow's and QPay's bodies are a few
 * hundred bytes, so 64 KiB is generous and still cheap. The gateway refuses more before forwarding
 * and the service's route refuses it again (a service may be reached without the gateway).
 */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

/** What any route of a service takes (Fastify's bodyLimit); the gateway refuses more before forwarding. */
export const SERVICE_BODY_LIMIT_BYTES = 1024 * 1024;
/** What a route that takes a whole file takes (a database import, contract `upload`): admins' and the gateway's only. */
export const UPLOAD_BODY_LIMIT_BYTES = 256 * 1024 * 1024;

/** JSON nested deeper than this is refused before it is parsed: no contract of ours nests past a handful. */
export const JSON_DEPTH_MAX = 32;

/**
 * The deepest nesting of arrays and objects in a JSON text, found by scanning (strings skipped),
 * stopping as soon as it passes `max`, so a hostile `[[[[…` costs one pass and no parse.
 */
export function jsonDepthExceeds(text: string, max: number = JSON_DEPTH_MAX): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A field path as a person reads it (`custom_fields.invoice_id`, `items.2`), a NUL in a key shown escaped. */
const pathText = (path: (string | number)[]) => path.map((part) => String(part).replaceAll('\u0000', '\\u0000')).join('.');

/** The path of the first string (value or object key) holding U+0000, or null. Iterative: depth is bounded by the parser, not the stack. */
export function nulPath(value: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return [...path, key];
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return null;
}

/**
 * Refuses a request part holding U+0000 anywhere, naming the field: PostgreSQL stores no NUL in
 * text or JSON, so such a value would fail half-way through a handler (after an outside call).
 */
export function assertNoNul(value: unknown, where: 'params' | 'query' | 'body'): void {
  const path = nulPath(value);
  if (path === null) return;
  const field = path.length ? pathText(path) : where;
  throw badRequest(`Invalid ${where}: ${field}: must not contain a NUL character (U+0000)`, [{ field, message: 'must not contain a NUL character (U+0000)' }]);
}
