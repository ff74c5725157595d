import { idParam, INT32_MAX, pathParamNames, textNumbers, type AnyRouteContract } from '@bo/proto';
import type { z } from 'zod';

/**
 * Hostile requests generated from a route's contract (issue 18 §2): its example is the valid base,
 * its zod schemas say what each field is, and every variant changes one thing. `expect` is what the
 * contract promises beyond "never a 5xx": a 400 naming the field, or a size refusal.
 */
export interface HostileRequest {
  route: AnyRouteContract;
  /** What was changed, e.g. `body custom_fields.amount: number as text`. */
  label: string;
  method: string;
  /** Path and query string, percent-encoded as sent. */
  url: string;
  body?: string;
  contentType?: string;
  expect?: { status: 400 | 413; mentions?: string };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = z.ZodType;

const NUL = '\u0000';
const BIG_INT = INT32_MAX + 1;
const MEBIBYTE = 1024 * 1024;

const defOf = (schema: Schema) => (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;

/** The schema a value is first judged by: wrappers (optional, default, …) removed, a preprocess's target. */
function unwrap(schema: Schema): Schema {
  for (;;) {
    const def = defOf(schema);
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type)) schema = def.innerType as Schema;
    else if (def.type === 'pipe') schema = defOf(def.in as Schema).type === 'transform' ? (def.out as Schema) : (def.in as Schema);
    else return schema;
  }
}

/** The schema of a field below `schema` (object key, array item), or undefined when the contract has none. */
function childOf(schema: Schema, key: string | number): Schema | undefined {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') return (def.shape as Record<string, Schema>)[key] ?? undefined;
  if (def.type === 'array') return def.element as Schema;
  if (def.type === 'record') return def.valueType as Schema;
  if (def.type === 'union') {
    for (const option of def.options as Schema[]) {
      const found = childOf(option, key);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Whether the contract means a number here and nothing else: then `true`, `[]`, `{}`, 2^31 and
 * (unless it is registered as typed text on purpose) the number's text must be refused.
 */
function numbersOnly(schema: Schema): boolean {
  if (textNumbers.has(schema)) return false;
  const def = defOf(schema);
  switch (def.type) {
    case 'number':
      return true;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return numbersOnly(def.innerType as Schema);
    case 'pipe':
      return defOf(def.in as Schema).type === 'transform' ? numbersOnly(def.out as Schema) : numbersOnly(def.in as Schema);
    case 'union':
      return (def.options as Schema[]).every(numbersOnly);
    default:
      return false;
  }
}

/** Every leaf of a JSON value with its path. */
function leaves(value: Json, path: (string | number)[] = []): { path: (string | number)[]; value: Json }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => leaves(item, [...path, key]));
  return [{ path, value }];
}

/** Every object in a JSON value with its path (for missing and extra fields). */
function objects(value: Json, path: (string | number)[] = []): { path: (string | number)[]; value: { [key: string]: Json } }[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => objects(item, [...path, index]));
  if (value === null || typeof value !== 'object') return [];
  return [{ path, value }, ...Object.entries(value).flatMap(([key, item]) => objects(item, [...path, key]))];
}

function withAt(value: Json, path: (string | number)[], change: (old: Json) => Json | undefined): Json {
  if (path.length === 0) return change(value) as Json;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, Json>;
  const next = withAt(copy[head], rest, change);
  if (rest.length === 0 && next === undefined) delete copy[head];
  else copy[head] = next;
  return copy as Json;
}

function schemaAt(schema: Schema | undefined, path: (string | number)[]): Schema | undefined {
  let current = schema;
  for (const key of path) current = current && childOf(current, key);
  return current;
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** The hostile variants of one route, from its contract and example. `base` replaces example parts (a fixture's id). */
export function hostileRequests(route: AnyRouteContract, base: { params?: Record<string, string> } = {}): HostileRequest[] {
  const params: Record<string, string> = { ...Object.fromEntries(Object.entries((route.example.params ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])), ...base.params };
  const query = Object.fromEntries(Object.entries((route.example.query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  const body = route.example.body as Json | undefined;
  const pathWith = (values: Record<string, string>) => route.path.replace(/:([A-Za-z]\w*)/g, (_, name: string) => values[name]);
  const url = (values = params, search: string = new URLSearchParams(query).toString()) => `${pathWith(values)}${search ? `?${search}` : ''}`;
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const baseBody = hasBody ? JSON.stringify(body ?? {}) : undefined;
  const send = (label: string, change: Partial<HostileRequest>): HostileRequest => ({
    route, label, method: route.method, url: url(), body: baseBody, contentType: baseBody === undefined ? undefined : 'application/json', ...change,
  });
  const cases: HostileRequest[] = [];
  const nulRefusal = (where: string, field: string) => ({ status: 400 as const, mentions: `Invalid ${where}: ${field}: must not contain a NUL character` });

  // Path parameters: NUL, ids past PostgreSQL's integer, not a number at all, a climb, a huge one.
  for (const name of pathParamNames(route.path)) {
    const isId = route.params instanceof Object && (route.params as z.ZodObject).shape?.[name] === idParam;
    const variant = (label: string, value: string, expect?: HostileRequest['expect']) => cases.push(send(`param ${name}: ${label}`, { url: url({ ...params, [name]: value }), expect }));
    variant('NUL', `${encodeURIComponent(params[name])}%00`, nulRefusal('params', name));
    for (const [label, value] of [['past 2^31', String(BIG_INT)], ['negative', '-1'], ['zero', '0'], ['not a number', 'abc'], ['fraction', '1.5'], ['exponent', '1e3']]) {
      variant(label, value, isId ? { status: 400, mentions: `Invalid params: ${name}:` } : undefined);
    }
    variant('dot segments', '%2e%2e');
    variant('bad percent-encoding', '%E0%A4%A');
    variant('8 KiB', 'p'.repeat(8 * 1024));
  }

  // The query: NUL in each known key and in one no contract knows, a number past 2^31, a repeated key.
  const queryKeys = [...new Set([...Object.keys(query), ...Object.keys(route.query ? ((unwrap(route.query) as z.ZodObject).shape ?? {}) : {})])];
  for (const key of queryKeys) {
    const search = (value: string | string[]) => {
      const built = new URLSearchParams(query);
      built.delete(key);
      for (const item of [value].flat()) built.append(key, item);
      return built.toString();
    };
    cases.push(send(`query ${key}: NUL`, { url: url(params, search(`x${NUL}`)), expect: nulRefusal('query', key) }));
    cases.push(send(`query ${key}: past 2^31`, { url: url(params, search(String(BIG_INT))) }));
    cases.push(send(`query ${key}: repeated`, { url: url(params, search(['1', '2'])) }));
    cases.push(send(`query ${key}: 4 KiB`, { url: url(params, search('q'.repeat(4096))) }));
  }
  cases.push(send('query: unknown key with NUL', { url: url(params, new URLSearchParams({ ...query, zz: NUL }).toString()), expect: nulRefusal('query', 'zz') }));

  if (!hasBody) return cases;

  // The body as a whole: not JSON, the wrong JSON type, too large, too deep, not JSON at all.
  const objectBody = route.body !== undefined && defOf(unwrap(route.body)).type === 'object';
  for (const [label, raw] of [['number', '5'], ['string', '"text"'], ['array', '[]'], ['null', 'null']]) {
    cases.push(send(`body: ${label}`, { body: raw, expect: objectBody ? { status: 400, mentions: 'Invalid body' } : undefined }));
  }
  cases.push(send('body: broken JSON', { body: '{"a":', expect: { status: 400 } }));
  cases.push(send('body: text/plain', { contentType: 'text/plain' }));
  cases.push(send('body: NUL in a field no contract knows', { body: JSON.stringify({ ...(typeof body === 'object' && body && !Array.isArray(body) ? body : {}), zz: NUL }), expect: nulRefusal('body', 'zz') }));
  cases.push(send('body: nested 40 deep', { body: JSON.stringify({ zz: JSON.parse(nested(40)) }), expect: { status: 400, mentions: 'nested deeper than 32' } }));
  if (route.upload) {
    // A file's route (a database import) takes far more than any form (UPLOAD_BODY_LIMIT_BYTES): past the
    // others' limit the body is still read, and judged as the file it is not.
    cases.push(send('body: 1025 KiB to a file route', { body: JSON.stringify({ zz: 'x'.repeat(MEBIBYTE + 1024) }), expect: { status: 400, mentions: 'Invalid body' } }));
  } else {
    const tooBig = route.webhook ? 70 * 1024 : MEBIBYTE + 1024;
    cases.push(send(`body: ${Math.round(tooBig / 1024)} KiB`, { body: JSON.stringify({ zz: 'x'.repeat(tooBig) }), expect: { status: 413 } }));
  }

  if (body === undefined || body === null || typeof body !== 'object') return cases;

  // Each field of the example: NUL in strings, a number for a string; for numbers, past 2^31, as
  // text, true, [] and {}; for anything, null and an array holding NUL.
  for (const leaf of leaves(body)) {
    const field = leaf.path.join('.');
    const schema = schemaAt(route.body, leaf.path);
    const variant = (label: string, value: Json, expect?: HostileRequest['expect']) => cases.push(send(`body ${field}: ${label}`, { body: JSON.stringify(withAt(body, leaf.path, () => value)), expect }));
    if (typeof leaf.value === 'string') {
      variant('NUL', `${leaf.value}${NUL}`, nulRefusal('body', field));
      variant('number', /^\d{1,15}$/.test(leaf.value) ? Number(leaf.value) : 5);
    } else if (typeof leaf.value === 'number') {
      const strict = schema !== undefined && numbersOnly(schema);
      const refused = strict ? ({ status: 400, mentions: `Invalid body: ${field}` } as const) : undefined;
      variant('past 2^31', BIG_INT, refused);
      variant('1e300', 1e300, refused);
      variant('number as text', String(leaf.value), strict ? refused : undefined);
      variant('true', true, refused);
      variant('array', [], refused);
      variant('object', {}, refused);
      variant('negative', -1);
      variant('fraction', 1.5, strict && Number.isInteger(leaf.value) ? refused : undefined);
    } else if (typeof leaf.value === 'boolean') {
      variant('as text', String(leaf.value));
      variant('number', 1);
    }
    variant('null', null);
    if (typeof leaf.value !== 'string') variant('array holding NUL', [NUL], { status: 400, mentions: `Invalid body: ${field}.0: must not contain a NUL character` });
  }
  for (const object of objects(body)) {
    const where = object.path.join('.') || 'body';
    for (const key of Object.keys(object.value)) cases.push(send(`body ${where}: without ${key}`, { body: JSON.stringify(withAt(body, [...object.path, key], () => undefined)) }));
    cases.push(send(`body ${where}: an extra field`, { body: JSON.stringify(withAt(body, [...object.path, 'zzExtra'], () => 'x')) }));
  }
  return cases;
}
