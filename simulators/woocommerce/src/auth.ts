import { WooError } from './errors';
import type { ApiKey, WooState } from './state';

/**
 * WC_REST_Authentication: query-string keys first, then Basic. An unknown key leaves the request
 * anonymous (the route then answers cannot_view/…); a wrong secret is an error of its own.
 */
export function authenticate(state: WooState, query: Record<string, string>, authorization: string | undefined): ApiKey | undefined {
  let key = query.consumer_key;
  let secret = query.consumer_secret;
  if (!key || !secret) {
    const match = /^Basic\s+(.+)$/i.exec(authorization ?? '');
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    [key, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  }
  const found = state.keys.find((k) => k.consumer_key === key);
  if (!found) return undefined;
  if (found.consumer_secret !== secret) throw new WooError(401, 'woocommerce_rest_authentication_error', 'Consumer secret is invalid.');
  return found;
}

/** A key's read/write permission against the HTTP method. */
export function checkKeyPermission(key: ApiKey, method: string): void {
  const reading = method === 'GET' || method === 'HEAD';
  if (reading && key.permission === 'write') throw new WooError(401, 'woocommerce_rest_authentication_error', 'The API key provided does not have read permissions.');
  if (!reading && key.permission === 'read') throw new WooError(401, 'woocommerce_rest_authentication_error', 'The API key provided does not have write permissions.');
}

/** What an anonymous caller gets from a route's permission check. */
export const anonymousRefusal = {
  list: new WooError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'),
  view: new WooError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.'),
  create: new WooError(401, 'woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.'),
  edit: new WooError(401, 'woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'),
  delete: new WooError(401, 'woocommerce_rest_cannot_delete', 'Sorry, you are not allowed to delete this resource.'),
  batch: new WooError(401, 'woocommerce_rest_cannot_batch', 'Sorry, you are not allowed to batch manipulate this resource.'),
};
export type Action = keyof typeof anonymousRefusal;
