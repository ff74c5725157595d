/**
 * The API tools' pure logic: the catalogue read out of the OpenAPI document (only what the signed-in
 * admin may call, grouped by category), each operation's sample request, the request tester's
 * same-origin check, and the request log's status colours.
 */
import type { RouteAccess } from '@bo/proto';
import { ApiError, errorText, type Method } from '../../lib/api';
import { queryString, type Query } from '../../lib/paths';
import type { ApiCall, OpenApiDocument, OpenApiMedia, OpenApiOperation, RequestLogEntry } from './api';

export type OperationAccess = Exclude<RouteAccess, 'internal'>;

/**
 * Whether an administrator may call an operation of this access.
 * - admin and public: yes.
 * - customer: no. The gateway itself lets an admin's session through (platform's assertAccess:
 *   "customer" means a customer session or an admin, and gateway/src/plugins/access.ts applies it to
 *   every forwarded route), but every customer route answers for the session's own keys, and the
 *   service that owns them refuses any session that is not a customer's
 *   (services/streaming-keys `sessionKeys`: 403 'Customer session required'). Listed, each would
 *   only ever fail for an admin.
 * - internal, or an access the document does not say: never (internal routes are not in the
 *   document at all; anything else fails closed).
 */
export function adminMayCall(access: unknown): access is 'admin' | 'public' {
  return access === 'admin' || access === 'public';
}

export interface CatalogueParameter {
  name: string;
  /** path, query, header or cookie. */
  in: string;
  required: boolean;
  /** The schema's type, or its choices ('NFX | DPS'), for the reader; null when neither is given. */
  type: string | null;
  example: unknown;
}

/** Why an operation has no Test: fetch cannot show it (a stream, a redirect), or its path cannot be filled. */
export type Untestable = 'stream' | 'redirect' | 'missingExample';

export interface CatalogueEndpoint {
  /** The operationId (unique in the document). */
  id: string;
  method: Method;
  /** As the document writes it: `/api/prices/{product}`. */
  path: string;
  summary: string;
  category: string;
  access: 'admin' | 'public';
  parameters: CatalogueParameter[];
  /** The sample request body; undefined when the operation takes none. */
  requestExample: unknown;
  /** The sample of a success's answer; undefined when it has none (a redirect). */
  responseExample: unknown;
  untestable: Untestable | null;
}

export interface CatalogueCategory {
  name: string;
  endpoints: CatalogueEndpoint[];
}

export interface Catalogue {
  endpoints: CatalogueEndpoint[];
  /** In the order the document first names them; each one's operations in document order. */
  categories: CatalogueCategory[];
}

const methods: Record<string, Method> = { get: 'GET', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

const jsonExample = (content: Record<string, OpenApiMedia> | undefined): unknown => content?.['application/json']?.example;

/** A stream (Server-Sent Events) or a redirect (302 and no 2xx) cannot be tried with one fetch. */
function unfetchable(operation: OpenApiOperation): Untestable | null {
  const responses = operation.responses ?? {};
  const codes = Object.keys(responses);
  if (codes.some((code) => responses[code]?.content?.['text/event-stream'])) return 'stream';
  if (!codes.some((code) => /^2/.test(code)) && codes.some((code) => /^3/.test(code))) return 'redirect';
  return null;
}

function successExample(operation: OpenApiOperation): unknown {
  const responses = operation.responses ?? {};
  const code = Object.keys(responses).find((candidate) => /^2/.test(candidate));
  return code ? jsonExample(responses[code]?.content) : undefined;
}

function typeOf(schema: { type?: unknown; enum?: unknown[] } | undefined): string | null {
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum.map(String).join(' | ');
  if (typeof schema?.type === 'string') return schema.type;
  if (Array.isArray(schema?.type)) return schema.type.map(String).join(' | ');
  return null;
}

/**
 * The catalogue of the operations an administrator may call (adminMayCall), read from the OpenAPI
 * document: each with its method, path, summary, category (its first tag), parameters with their
 * examples, and the sample request and answer. Anything the document holds that is not an
 * operation of one of the five methods is passed over.
 */
export function catalogueOf(document: OpenApiDocument | null | undefined): Catalogue {
  const endpoints: CatalogueEndpoint[] = [];
  for (const [path, operations] of Object.entries(document?.paths ?? {})) {
    if (!path.startsWith('/')) continue;
    for (const [key, value] of Object.entries(operations ?? {})) {
      const method = methods[key];
      const operation = value as OpenApiOperation | null;
      if (!method || !operation || typeof operation !== 'object') continue;
      const access = operation['x-access'];
      if (!adminMayCall(access)) continue;
      const parameters = (operation.parameters ?? []).map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true,
        type: typeOf(parameter.schema),
        example: parameter.example,
      }));
      const endpoint: CatalogueEndpoint = {
        id: operation.operationId ?? `${key} ${path}`,
        method,
        path,
        summary: operation.summary ?? '',
        category: operation.tags?.[0] ?? 'Other',
        access,
        parameters,
        requestExample: jsonExample(operation.requestBody?.content),
        responseExample: successExample(operation),
        untestable: unfetchable(operation),
      };
      if (!endpoint.untestable && 'missing' in testPathOf(endpoint)) endpoint.untestable = 'missingExample';
      endpoints.push(endpoint);
    }
  }
  return { endpoints, categories: groupByCategory(endpoints) };
}

export function groupByCategory(endpoints: readonly CatalogueEndpoint[]): CatalogueCategory[] {
  const groups = new Map<string, CatalogueEndpoint[]>();
  for (const endpoint of endpoints) {
    const group = groups.get(endpoint.category);
    if (group) group.push(endpoint);
    else groups.set(endpoint.category, [endpoint]);
  }
  return [...groups].map(([name, list]) => ({ name, endpoints: list }));
}

/**
 * The categories holding an operation whose method, path, summary or category has every word of
 * `text` (any case), with only those operations; all of them for an empty text.
 */
export function filterCatalogue(categories: readonly CatalogueCategory[], text: string): CatalogueCategory[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...categories];
  const matches = (endpoint: CatalogueEndpoint) => {
    const haystack = `${endpoint.method} ${endpoint.path} ${endpoint.summary} ${endpoint.category}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  return categories.map((category) => ({ ...category, endpoints: category.endpoints.filter(matches) })).filter((category) => category.endpoints.length > 0);
}

/**
 * Fills `{name}` in a document path (anywhere in a segment: `/api/admin/runs/pricing.{runId}`) with
 * the values, each percent-encoded; names the first one that has no value instead.
 */
export function fillPath(template: string, values: Readonly<Record<string, unknown>>): { path: string } | { missing: string } {
  let missing: string | null = null;
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      missing ??= name;
      return '';
    }
    return encodeURIComponent(String(value));
  });
  return missing === null ? { path } : { missing };
}

/**
 * The path a Test calls: the path parameters filled from their examples, and the required query
 * parameters from theirs (optional ones are left out: the server's defaults apply).
 */
export function testPathOf(endpoint: Pick<CatalogueEndpoint, 'path' | 'parameters'>): { path: string } | { missing: string } {
  const pathValues = Object.fromEntries(endpoint.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, parameter.example]));
  const filled = fillPath(endpoint.path, pathValues);
  if ('missing' in filled) return filled;
  const query: Query = {};
  for (const parameter of endpoint.parameters) {
    if (parameter.in !== 'query' || !parameter.required) continue;
    if (parameter.example === undefined || parameter.example === null) return { missing: parameter.name };
    query[parameter.name] = typeof parameter.example === 'object' ? JSON.stringify(parameter.example) : (parameter.example as string | number | boolean);
  }
  return { path: filled.path + queryString(query) };
}

/** The call a Test makes (null for an operation it cannot try): method, filled path, sample body. */
export function testRequestOf(endpoint: CatalogueEndpoint): ApiCall | null {
  if (endpoint.untestable) return null;
  const filled = testPathOf(endpoint);
  if ('missing' in filled) return null;
  return { method: endpoint.method, path: filled.path, ...(endpoint.requestExample === undefined ? {} : { body: endpoint.requestExample }) };
}

/** A call that may change data on the server: its Test asks first. */
export const isWrite = (method: Method): boolean => method !== 'GET';

export const methodPalette: Record<Method, string> = { GET: 'green', POST: 'blue', PUT: 'orange', PATCH: 'purple', DELETE: 'red' };

export type PathCheck = { ok: true; path: string } | { ok: false; problem: 'empty' | 'notAPath' | 'otherHost' };

/**
 * What the request tester may call: a path on this origin only. It must start with one `/`; a full
 * URL (`http://…`, `javascript:…`) or a bare word is not a path, and `//host` or `/\host` (which
 * browsers read as `//host`) name another host. What is sent is the path as the browser resolves
 * it against this origin, checked to still be this origin (the URL parser drops tabs and line
 * breaks, which could otherwise turn `/<tab>/host` into `//host`).
 */
export function sameOriginPath(input: string, origin: string): PathCheck {
  const text = input.trim();
  if (text === '') return { ok: false, problem: 'empty' };
  if (!text.startsWith('/')) return { ok: false, problem: 'notAPath' };
  if (/^\/[\\/]/.test(text)) return { ok: false, problem: 'otherHost' };
  let url: URL;
  try {
    url = new URL(text, origin);
  } catch {
    return { ok: false, problem: 'notAPath' };
  }
  if (url.origin !== new URL(origin).origin) return { ok: false, problem: 'otherHost' };
  return { ok: true, path: url.pathname + url.search };
}

export type StatusTone = 'good' | 'warning' | 'destructive';

/** Document 1, api-tools: 2xx good, 4xx warning, anything else (3xx, 5xx, no answer) destructive. */
export function statusTone(statusCode: string | number): StatusTone {
  const code = Number(statusCode);
  if (code >= 200 && code < 300) return 'good';
  if (code >= 400 && code < 500) return 'warning';
  return 'destructive';
}

export const tonePalette: Record<StatusTone, string> = { good: 'green', warning: 'orange', destructive: 'red' };

/** The `count` latest entries of the request log, newest first (by time, then by id). */
export function latestEntries(entries: readonly RequestLogEntry[], count: number): RequestLogEntry[] {
  return [...entries].sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id).slice(0, count);
}

const MAX_DETAIL = 300;

/** What a failed call's answer said, for a line under the spec's text: '{status}: {server's error, else the body}'. */
export function failureDetail(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body.length > MAX_DETAIL ? `${error.body.slice(0, MAX_DETAIL)}…` : error.body;
  return `${error.status}: ${errorText(error, body)}`;
}
