import { WooError, invalidParams } from './errors';
import { listSpec, validateFields } from './schema';
import type { WooState } from './state';

export interface Answer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Builds this endpoint's URL (pretty or ?rest_route= form) with other query arguments. */
export type LinkBuilder = (query: Record<string, string>) => string;

/** page / per_page (1..100) / offset / order, checked like WordPress. */
export function listArgs(query: Record<string, string>) {
  const args = validateFields(query, listSpec) as { page?: number; per_page?: number; offset?: number; order?: 'asc' | 'desc' };
  const perPage = args.per_page ?? 10;
  if (perPage < 1 || perPage > 100) throw invalidParams({ per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' });
  const page = args.page ?? 1;
  if (page < 1) throw invalidParams({ page: 'page must be greater than or equal to 1' });
  return { page, perPage, offset: args.offset, order: args.order ?? 'desc' };
}

/** One page of a sorted list with X-WP-Total, X-WP-TotalPages and a Link header (rel prev/next). */
export function pageOf<T>(state: WooState, items: T[], query: Record<string, string>, link: LinkBuilder): Answer {
  const { page, perPage, offset } = listArgs(query);
  const start = offset ?? (page - 1) * perPage;
  const totalPages = Math.ceil(items.length / perPage);
  if (page > totalPages && items.length > 0 && offset === undefined && state.options.pagePastEnd === 'error') {
    throw new WooError(400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
  }
  const links: string[] = [];
  if (page > 1) links.push(`<${link({ ...query, page: String(Math.min(page - 1, Math.max(totalPages, 1))) })}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link({ ...query, page: String(page + 1) })}>; rel="next"`);
  const headers: Record<string, string> = { 'X-WP-Total': String(items.length), 'X-WP-TotalPages': String(totalPages) };
  if (links.length > 0) headers.Link = links.join(', ');
  return { body: items.slice(start, start + perPage), headers };
}

/** Sorts by date (then id) or another key; desc by default like WordPress. */
export function sortBy<T extends { id: number; date_created: string }>(items: T[], order: 'asc' | 'desc', key: (item: T) => string | number = (item) => item.date_created) {
  const sign = order === 'asc' ? 1 : -1;
  return [...items].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -sign : x > y ? sign : 0) || sign * (a.id - b.id);
  });
}

/** Comma lists in query arguments (sku, status, include). */
export const commaList = (value: string | undefined) => (value ? value.split(',').map((s) => s.trim()).filter(Boolean) : undefined);

export interface BatchOps {
  create(input: unknown): unknown;
  update(id: number, input: unknown): unknown;
  remove(id: number): unknown;
}

/** Batch: ≤ limit objects in total, results in request order, failed items inline, nothing rolled back. */
export function runBatch(state: WooState, body: unknown, ops: BatchOps): Answer {
  const { create = [], update = [], delete: remove = [] } = (body && typeof body === 'object' ? body : {}) as Record<string, unknown[]>;
  const total = [create, update, remove].reduce((sum, list) => sum + (Array.isArray(list) ? list.length : 0), 0);
  const limit = state.options.batchLimit;
  if (total > limit) throw new WooError(413, 'woocommerce_rest_request_entity_too_large', `Unable to accept more than ${limit} items for this request.`);
  const attempt = (id: number, work: () => unknown) => {
    try {
      return work();
    } catch (error) {
      if (!(error instanceof WooError)) throw error;
      const { code, message, data } = error.toBody();
      return { id, error: { code, message, data } };
    }
  };
  const idOf = (item: unknown) => Number((item as { id?: unknown })?.id ?? (typeof item === 'number' || typeof item === 'string' ? item : 0)) || 0;
  const answer: Record<string, unknown[]> = {};
  if (Array.isArray(create) && create.length) answer.create = create.map((item) => attempt(0, () => ops.create(item)));
  if (Array.isArray(update) && update.length) answer.update = update.map((item) => attempt(idOf(item), () => ops.update(idOf(item), item)));
  if (Array.isArray(remove) && remove.length) answer.delete = remove.map((item) => attempt(idOf(item), () => ops.remove(idOf(item))));
  return { body: answer };
}
