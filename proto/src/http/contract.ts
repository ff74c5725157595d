import { z } from 'zod';
import type { ServiceName } from '../services';

/**
 * Who may call a route; every contract must say it (there is no default):
 * - public: anyone, including the chat platform and bank callbacks;
 * - customer: a signed-in customer (or an admin);
 * - admin: a signed-in administrator;
 * - internal: our own processes (the gateway, or a service calling another), never reachable from outside.
 */
export const routeAccesses = ['public', 'customer', 'admin', 'internal'] as const;
export type RouteAccess = (typeof routeAccesses)[number];

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/**
 * How the reply travels: JSON checked against `reply`, a redirect (a browser navigation such as
 * the sign-in round trip), a stream the gateway passes through unbuffered, or a download: a JSON
 * file written as it is read (an attachment; `reply` is its shape, too large to check whole).
 */
export type ReplyKind = 'json' | 'redirect' | 'stream' | 'download';

type Schema = z.ZodType;
type In<S> = S extends Schema ? z.input<S> : undefined;
type Out<S> = S extends Schema ? z.output<S> : undefined;

export interface RouteContract<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
> {
  /** The process that answers: a service of the registry, or the gateway itself. */
  owner: ServiceName;
  method: HttpMethod;
  /** Path pattern; `:name` is one segment and must be a key of `params`. */
  path: string;
  access: RouteAccess;
  /**
   * For an internal route: the processes that call it. Each signs its own identity with its own
   * key, so another service (ai-chat, which reads hostile mail) cannot use a route it never needs.
   */
  callers?: readonly ServiceName[];
  params?: P;
  query?: Q;
  body?: B;
  /** The JSON reply of a success; error replies are always `{ error, details? }`. */
  reply: R;
  replyKind?: ReplyKind;
  /** One line for the API catalogue. */
  summary: string;
  /** Groups routes in the API catalogue (document 1's api-tools). */
  category: string;
  example: { params?: In<P>; query?: In<Q>; body?: In<B>; reply: Out<R> };
  /** A public GET whose answer the gateway may keep for a short time. */
  cacheable?: boolean;
  /** Authenticated by a signature or token of its own, not by cookies: no CSRF check, anonymous identity. */
  webhook?: boolean;
  /** Takes a whole file as its body (a database import): up to UPLOAD_BODY_LIMIT_BYTES instead of the usual limit. */
  upload?: boolean;
}

export type AnyRouteContract = RouteContract<Schema | undefined, Schema | undefined, Schema | undefined, Schema>;
/** What a handler returns (the schema's input: defaults may still be missing). */
export type ReplyOf<C> = C extends RouteContract<Schema | undefined, Schema | undefined, Schema | undefined, infer R> ? z.input<R> : never;
/** What a caller sends as the body. */
export type RequestBodyOf<C> = C extends RouteContract<Schema | undefined, Schema | undefined, infer B, Schema> ? In<B> : never;

/** Path parameter names of a pattern, in order. */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/:([A-Za-z]\w*)/g)].map((m) => m[1]);

/**
 * A route as data. Checked when defined, so a broken contract fails at import time, not at the
 * first request: the access is one of the four, every path parameter has a schema, and the
 * example parses against the schemas it illustrates.
 */
export function defineRoute<P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined, R extends Schema>(
  contract: RouteContract<P, Q, B, R>,
): RouteContract<P, Q, B, R> {
  const where = `${contract.method} ${contract.path}`;
  if (!routeAccesses.includes(contract.access)) throw new Error(`${where}: access must be one of ${routeAccesses.join(', ')}`);
  if (!contract.path.startsWith('/')) throw new Error(`${where}: path must start with /`);
  const names = pathParamNames(contract.path);
  const shape = contract.params instanceof z.ZodObject ? Object.keys(contract.params.shape) : [];
  if (names.length > 0 || contract.params) {
    const missing = names.filter((name) => !shape.includes(name));
    const extra = shape.filter((name) => !names.includes(name));
    if (missing.length || extra.length) throw new Error(`${where}: params schema must have exactly the keys ${names.join(', ') || '(none)'}`);
  }
  if (contract.callers && contract.access !== 'internal') throw new Error(`${where}: only internal routes name their callers`);
  if (contract.cacheable && (contract.method !== 'GET' || contract.access !== 'public')) throw new Error(`${where}: only public GETs are cacheable`);
  const check = (part: string, schema: Schema | undefined, value: unknown) => {
    if (!schema) return;
    // An absent request part is sent as `{}`; a reply is judged as it is.
    const result = schema.safeParse(part === 'reply' ? value : (value ?? {}));
    if (!result.success) throw new Error(`${where}: example ${part} does not match its schema: ${result.error.message}`);
  };
  check('params', contract.params, contract.example.params);
  check('query', contract.query, contract.example.query);
  check('body', contract.body, contract.example.body);
  check('reply', contract.reply, contract.example.reply);
  return contract;
}

/** The reply of a redirect route: no JSON body. */
export const redirectReply = z.undefined();

/** `{ success: true }`, the acknowledgement most writes answer. */
export const successReply = z.object({ success: z.boolean() });

/** The `:product` style parameter: a trimmed, non-empty path segment. */
export const nameParam = (what: string) => z.string().trim().min(1, `${what} is required`).max(200);
