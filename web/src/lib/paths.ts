import type { ApiRoute } from './api-routes';

/**
 * Builds API paths from a template and values: every `:name` segment is percent-encoded (a product
 * name may hold '/', '?', spaces or Cyrillic), and the query string is built from an object.
 *   apiPath('/api/woocommerce/mappings/:productName', { productName: 'Netflix 1/2' })
 *   apiPath('/api/prices', {}, { format: 'array' })
 */
type ParamNames<Template extends string> = Template extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Template extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<Template extends string> = { [Name in ParamNames<Template>]: string | number };

/** A route's path with its `:name` segments filled with any text. */
type Filled<Template extends string> = Template extends `${infer Head}:${string}/${infer Rest}`
  ? `${Head}${string}/${Filled<Rest>}`
  : Template extends `${infer Head}:${string}`
    ? `${Head}${string}`
    : Template;

/** A path the app may call: a route of the contracts (api-routes.ts), filled in, with or without a query string. */
export type ApiUrl = Filled<ApiRoute> | `${Filled<ApiRoute>}?${string}`;
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Record<string, QueryValue>;

export function apiPath<Template extends ApiRoute>(template: Template, params: PathParams<Template>, query?: Query): ApiUrl {
  const values = params as Record<string, string | number>;
  const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === '') throw new Error(`apiPath: no value for :${name} in ${template}`);
    return encodeURIComponent(String(value));
  });
  return (path + queryString(query)) as ApiUrl;
}

/** A query string as queryString writes it: '' or '?…'. */
export type QueryText = '' | `?${string}`;

/** '?a=1&b=x%20y' from an object; undefined and null values are left out, arrays repeat the name. '' when empty. */
export function queryString(query: Query = {}): QueryText {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  // URLSearchParams writes spaces as '+'; %20 reads the same to every server and to people.
  const text = search.toString().replace(/\+/g, '%20');
  return text ? `?${text}` : '';
}

/** The GET path a query key names: its parts joined with '/', a query string ('?…', or '' when empty) joined as it is (lib/api's pathOfKey). */
type KeyPath<Key extends readonly string[]> = Key extends readonly [infer Head extends string, ...infer Rest extends readonly string[]]
  ? Rest extends readonly [] ? Head : `${Head}${Joint<Rest[0]>}${KeyPath<Rest>}` extends infer Path extends string ? Path : never
  : never;
type Joint<Part extends string> = Part extends QueryText ? '' : '/';

/** The server's health check: the one GET the app reads that is not an API route. */
type HealthUrl = '/health';

/**
 * A query key checked by apiKey or apiKeyPrefix. Branded: TanStack Query takes no other key
 * (its Register, lib/query-client.ts), so every query the app makes, invalidates or reads is named
 * through them, and a key the contracts do not know does not compile.
 */
declare const checkedKey: unique symbol;
export type ApiKey = readonly [string, ...string[]] & { readonly [checkedKey]: true };

/**
 * A query key checked against the contracts: its parts, joined as the default query function joins
 * them, must be a browser-callable route's path filled in (api-routes.ts). The parts are the path
 * split where keys share a prefix (invalidating `['/api/analytics']` refreshes
 * `['/api/analytics', 'overview']` too); a query string is its own last part.
 *   apiKey('/api/qpay/logs', queryString({ limit: 50 }))
 */
export function apiKey<const Key extends readonly [string, ...string[]]>(
  ...key: Key & (KeyPath<Key> extends ApiUrl | HealthUrl ? unknown : { notARoute: KeyPath<Key> })
): Key & ApiKey {
  return key as unknown as Key & ApiKey;
}

/** A key that only names queries to invalidate or remove together: its path must begin some route's path. */
export function apiKeyPrefix<const Key extends readonly [string, ...string[]]>(
  ...key: Key & ([Extract<ApiUrl, `${KeyPath<Key>}/${string}`>] extends [never] ? { beginsNoRoute: KeyPath<Key> } : unknown)
): Key & ApiKey {
  return key as unknown as Key & ApiKey;
}
