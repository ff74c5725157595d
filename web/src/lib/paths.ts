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

/** '?a=1&b=x%20y' from an object; undefined and null values are left out, arrays repeat the name. '' when empty. */
export function queryString(query: Query = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  // URLSearchParams writes spaces as '+'; %20 reads the same to every server and to people.
  const text = search.toString().replace(/\+/g, '%20');
  return text ? `?${text}` : '';
}
