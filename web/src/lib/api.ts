/**
 * The one way the web app talks to the gateway. Every call sends the session cookie; a body (and
 * its JSON content type) only goes out when there is a payload; a non-OK answer throws an ApiError
 * whose message is '{status}: {body text or status text}' (document 1, section 7). State-changing
 * calls carry the CSRF token.
 */
import type { QueryFunction, QueryKey } from '@tanstack/react-query';
import type { ApiUrl } from './paths';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A non-OK answer: the status, and the body text as the server sent it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`${status}: ${body}`);
    this.name = 'ApiError';
  }
}

let csrfToken: Promise<string> | null = null;

/** Fetched once and cached; `refresh` forgets the cached one (after a 403 or a new session). */
export function csrfTokenFor(refresh = false): Promise<string> {
  if (refresh || !csrfToken) {
    csrfToken = send('GET', '/api/auth/csrf').then((reply) => (reply.body as { token: string }).token);
    csrfToken.catch(() => (csrfToken = null));
  }
  return csrfToken;
}

export function forgetCsrfToken(): void {
  csrfToken = null;
}

/** An answer with its status: what the API tools show of a call. */
export interface ApiExchange {
  status: number;
  body: unknown;
}

export interface ExchangeOptions {
  /**
   * false: a redirect is not followed (it could lead to another host) but refused with
   * RedirectNotFollowed. Followed by default, as fetch does.
   */
  followRedirects?: boolean;
}

/** The answer was a redirect and `followRedirects: false` left it unfollowed. */
export class RedirectNotFollowed extends Error {
  constructor(readonly path: string) {
    super(`${path} answered with a redirect, which was not followed`);
    this.name = 'RedirectNotFollowed';
  }
}

/** A call of one of the contracts' routes (its path checked against them when the app is type-checked). */
export async function apiRequest<T = unknown>(method: Method, path: ApiUrl, payload?: unknown): Promise<T> {
  return (await apiExchange(method, path, payload)).body as T;
}

/** Like apiRequest, and says the answer's status too (a non-OK answer still throws an ApiError, which carries it). */
export async function apiExchange(method: Method, path: string, payload?: unknown, options: ExchangeOptions = {}): Promise<ApiExchange> {
  if (method === 'GET') return send(method, path, undefined, undefined, options);
  try {
    return await send(method, path, payload, await csrfTokenFor(), options);
  } catch (error) {
    // A 403 may mean the token belongs to an older session: fetch a fresh one and try once more.
    if (statusOf(error) !== 403) throw error;
    return send(method, path, payload, await csrfTokenFor(true), options);
  }
}

async function send(method: Method, path: string, payload?: unknown, token?: string, { followRedirects = true }: ExchangeOptions = {}): Promise<ApiExchange> {
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['x-csrf-token'] = token;
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers,
    body: payload === undefined ? undefined : JSON.stringify(payload),
    ...(followRedirects ? {} : { redirect: 'manual' as const }),
  });
  if (response.type === 'opaqueredirect') throw new RedirectNotFollowed(path);
  if (!response.ok) throw new ApiError(response.status, (await response.text()) || response.statusText);
  if (response.status === 204) return { status: response.status, body: null };
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, body: await (type.includes('json') ? response.json() : response.text()) };
}

/** Query keys joined with slashes are the GET path; a last part starting with '?' is the query string (an empty one is left out). */
export function pathOfKey(queryKey: QueryKey): string {
  return queryKey.map(String).filter((part) => part !== '').join('/').replace('/?', '?');
}

// A query key's parts are the path's (each feature's keys are built from its routes' paths).
export const defaultQueryFn: QueryFunction = ({ queryKey }) => apiRequest('GET', pathOfKey(queryKey) as ApiUrl);

/** The server's `error` field when the failure carries one, else the given default (the spec's text). */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  try {
    const parsed = JSON.parse(error.body) as { error?: unknown } | null;
    if (typeof parsed?.error === 'string' && parsed.error) return parsed.error;
  } catch {
    // not JSON (a proxy's HTML page, say): nothing the user could act on
  }
  return fallback;
}

export function statusOf(error: unknown): number | null {
  return error instanceof ApiError ? error.status : null;
}
