/**
 * WooCommerce REST API v3 (external-apis.md §3): consumer key and secret as Basic auth (or as
 * query parameters where a proxy strips the Authorization header), pagination through
 * X-WP-Total / X-WP-TotalPages, prices as strings, batches of at most 100 with per-item results.
 * Every call this service makes is idempotent (reads, and updates that set absolute prices), so
 * 429, 5xx and timeouts are retried a bounded number of times; 4xx other than 429 never are.
 */

export interface WooSettings {
  /** The shop's address; the API lives under /wp-json/wc/v3. */
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  keysInQuery: boolean;
  timeoutMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  /** A 429 whose Retry-After asks for longer than this is not waited for: the caller gets the error. */
  maxRetryAfterMs: number;
}

const defaultRetry: RetryPolicy = { retries: 2, baseDelayMs: 300, maxRetryAfterMs: 10_000 };
/** WooCommerce's per_page maximum and batch limit (woocommerce_rest_batch_items_limit). */
export const WOO_PAGE_SIZE = 100;
export const WOO_BATCH_LIMIT = 100;

export interface WooProduct {
  id: number;
  name: string;
  type: string;
  status: string;
  sku: string;
  price: string;
  regular_price: string;
  sale_price: string;
  permalink: string;
  variations: number[];
  attributes: { name: string; options?: string[]; variation?: boolean }[];
  categories: { name: string }[];
  stock_status: string;
}

export interface WooVariation {
  id: number;
  parent_id?: number;
  sku: string;
  status: string;
  price: string;
  regular_price: string;
  sale_price: string;
  permalink: string;
  stock_status: string;
  attributes: { name: string; option: string }[];
}

export interface WooOrder {
  id: number;
  number: string;
  status: string;
  currency: string;
  total: string;
  date_created: string;
  billing: { first_name?: string; last_name?: string; email?: string; phone?: string };
  line_items: { name: string; product_id: number; variation_id: number; quantity: number; total: string; sku: string }[];
}

/** Prices as WooCommerce takes them: strings, '' for "no sale". */
export interface WooPrices {
  regular_price: string;
  sale_price: string;
}

export type BatchItemResult = { id: number; ok: true; item: WooProduct | WooVariation } | { id: number; ok: false; error: string };

/** The shop refused, failed or could not be reached. `status` 0: no answer (network or timeout). */
export class WooCommerceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WooCommerceError';
  }

  /** Worth trying again later: rate limits, server errors and no answer. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

type Query = Record<string, string | number | undefined>;
interface Answer<T> {
  body: T;
  headers: Headers;
}

export class WooCommerceClient {
  private readonly apiRoot: string;
  private readonly retry: RetryPolicy;

  constructor(
    private readonly settings: WooSettings,
    options: { retry?: Partial<RetryPolicy> } = {},
  ) {
    const base = settings.storeUrl.replace(/\/+$/, '');
    this.apiRoot = base.endsWith('/wp-json/wc/v3') ? base : `${base}/wp-json/wc/v3`;
    this.retry = { ...defaultRetry, ...options.retry };
  }

  get storeUrl(): string {
    return this.settings.storeUrl;
  }

  /** The longest one request may take: every try waiting its full timeout, the longest waits between them, a second of slack. */
  get requestDeadlineMs(): number {
    const longestWait = Math.max(this.retry.maxRetryAfterMs, this.retry.baseDelayMs * 2 ** this.retry.retries * 1.25);
    return (this.retry.retries + 1) * this.settings.timeoutMs + this.retry.retries * longestWait + 1_000;
  }

  /** Products in the shop (any status but trash), read with the smallest page. */
  async countProducts(): Promise<number> {
    const { headers } = await this.request<unknown[]>('GET', '/products', { query: { per_page: 1 } });
    return Number(headers.get('x-wp-total') ?? 0);
  }

  listProducts(): Promise<WooProduct[]> {
    return this.listAll<WooProduct>('/products', { orderby: 'id', order: 'asc' });
  }

  listVariations(parentId: number): Promise<WooVariation[]> {
    return this.listAll<WooVariation>(`/products/${parentId}/variations`, { orderby: 'id', order: 'asc' });
  }

  async getProduct(id: number): Promise<WooProduct> {
    return (await this.request<WooProduct>('GET', `/products/${id}`)).body;
  }

  async getVariation(parentId: number, id: number): Promise<WooVariation> {
    return (await this.request<WooVariation>('GET', `/products/${parentId}/variations/${id}`)).body;
  }

  /** Sets a product's (parentId null) or a variation's prices; answers the item as the shop now has it. */
  async updatePrices(target: { id: number; parentId: number | null }, prices: WooPrices): Promise<WooProduct | WooVariation> {
    const path = target.parentId ? `/products/${target.parentId}/variations/${target.id}` : `/products/${target.id}`;
    return (await this.request<WooProduct | WooVariation>('PUT', path, { body: prices })).body;
  }

  /**
   * One batch update of products (parentId null) or of one variable product's variations: at most
   * 100 items. A failed item does not fail the batch; each comes back in request order.
   */
  async batchUpdatePrices(parentId: number | null, updates: (WooPrices & { id: number })[]): Promise<BatchItemResult[]> {
    if (updates.length > WOO_BATCH_LIMIT) throw new Error(`a batch takes at most ${WOO_BATCH_LIMIT} items, got ${updates.length}`);
    const path = parentId ? `/products/${parentId}/variations/batch` : '/products/batch';
    const { body } = await this.request<{ update?: (Record<string, unknown> & { id: number })[] }>('POST', path, { body: { update: updates } });
    const results = body.update ?? [];
    return updates.map((update, index) => {
      const result = results[index];
      if (!result) return { id: update.id, ok: false, error: 'WooCommerce returned no result for this item' };
      const error = result.error as { code?: string; message?: string } | undefined;
      if (error) return { id: update.id, ok: false, error: `${error.message ?? 'failed'} (${error.code ?? 'error'})` };
      return { id: update.id, ok: true, item: result as unknown as WooProduct };
    });
  }

  async getOrder(id: number): Promise<WooOrder> {
    return (await this.request<WooOrder>('GET', `/orders/${id}`)).body;
  }

  /** Orders matching a search term (billing names, e-mail, phone), newest first. */
  async searchOrders(search: string, limit: number): Promise<WooOrder[]> {
    return (await this.request<WooOrder[]>('GET', '/orders', { query: { search, per_page: Math.min(limit, WOO_PAGE_SIZE), orderby: 'date', order: 'desc' } })).body;
  }

  /** Every page of a list, 100 at a time, as long as X-WP-TotalPages says there are more. */
  private async listAll<T>(path: string, query: Query): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const { body, headers } = await this.request<T[]>('GET', path, { query: { ...query, per_page: WOO_PAGE_SIZE, page } });
      items.push(...body);
      const totalPages = Number(headers.get('x-wp-totalpages') ?? 1);
      if (page >= totalPages || body.length === 0) return items;
    }
  }

  private async request<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<Answer<T>> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, path, options);
      } catch (error) {
        if (!(error instanceof WooCommerceError) || !error.retryable || attempt >= this.retry.retries) throw error;
        const wait = error instanceof RateLimited ? error.retryAfterMs : this.retry.baseDelayMs * 2 ** attempt * (0.75 + Math.random() / 2);
        if (wait > this.retry.maxRetryAfterMs) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  private async once<T>(method: string, path: string, options: { query?: Query; body?: unknown }): Promise<Answer<T>> {
    const url = new URL(`${this.apiRoot}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.settings.keysInQuery) {
      url.searchParams.set('consumer_key', this.settings.consumerKey);
      url.searchParams.set('consumer_secret', this.settings.consumerSecret);
    } else {
      headers.authorization = `Basic ${Buffer.from(`${this.settings.consumerKey}:${this.settings.consumerSecret}`).toString('base64')}`;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new WooCommerceError(0, timedOut ? 'timeout' : 'unreachable', timedOut
        ? `WooCommerce did not answer within ${this.settings.timeoutMs / 1000} s`
        : `Could not reach WooCommerce at ${new URL(this.settings.storeUrl).host}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    const text = await response.text();
    if (response.ok) {
      try {
        return { body: JSON.parse(text) as T, headers: response.headers };
      } catch {
        throw new WooCommerceError(502, 'invalid_json', `WooCommerce answered ${response.status} with something that is not JSON`);
      }
    }
    throw errorFromAnswer(response, text);
  }
}

class RateLimited extends WooCommerceError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, 'rate_limited', message);
  }
}

/** Retry-After as seconds or an HTTP date; 1 s when absent or unreadable. */
function retryAfterMs(header: string | null): number {
  if (!header) return 1_000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - Date.now());
}

/** WooCommerce's `{code, message, data}` envelope, or a host's HTML error page, as one readable error. */
function errorFromAnswer(response: Response, text: string): WooCommerceError {
  let envelope: { code?: string; message?: string } | undefined;
  try {
    envelope = JSON.parse(text) as { code?: string; message?: string };
  } catch {
    envelope = undefined;
  }
  const detail = envelope?.message ? `: ${envelope.message}${envelope.code ? ` (${envelope.code})` : ''}` : ' (not a WooCommerce answer: an error page)';
  if (response.status === 429) {
    const wait = retryAfterMs(response.headers.get('retry-after'));
    return new RateLimited(`WooCommerce is limiting requests (429); it asks to wait ${Math.ceil(wait / 1000)} s${envelope?.message ? `: ${envelope.message}` : ''}`, wait);
  }
  return new WooCommerceError(response.status, envelope?.code ?? `http_${response.status}`, `WooCommerce answered ${response.status}${detail}`);
}
