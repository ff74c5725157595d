import { OutsideCallError, retryAfterMs, type OutsideAnswer, type OutsideOptions, type OutsideSystem } from '@bo/platform/outside';

/**
 * WooCommerce REST API v3 (external-apis.md §3): consumer key and secret as Basic auth (or as
 * query parameters where a proxy strips the Authorization header), pagination through
 * X-WP-Total / X-WP-TotalPages, prices as strings, batches of at most 100 with per-item results.
 * Calls go through the platform's outside client. Every call this service makes is safe to repeat
 * (reads, updates that set absolute values, deletes, and creates that carry a SKU the shop keeps
 * unique, so a repeat is refused as a duplicate), so 429, 5xx and timeouts are tried again a
 * bounded number of times (a 429 after its Retry-After, up to 10 s); 4xx other than 429 never are.
 * WooCommerce core has no REST rate limit: no pace.
 */

export interface WooSettings {
  /** The shop's address; the API lives under /wp-json/wc/v3. */
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  keysInQuery: boolean;
  timeoutMs: number;
}

/** WooCommerce as an outside system: its API root, each try's deadline, and how long a 429's Retry-After is waited for. */
export function wooCommerceSystem(settings: Pick<WooSettings, 'storeUrl' | 'timeoutMs'>): OutsideOptions {
  const base = settings.storeUrl.replace(/\/+$/, '');
  return {
    system: 'woocommerce',
    baseUrl: base.endsWith('/wp-json/wc/v3') ? base : `${base}/wp-json/wc/v3`,
    timeoutMs: settings.timeoutMs,
    retry: { retries: 2, baseDelayMs: 300, maxRetryAfterMs: 10_000 },
  };
}
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
    options?: ErrorOptions,
  ) {
    super(message, options);
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
  constructor(
    private readonly system: OutsideSystem,
    private readonly settings: WooSettings,
  ) {}

  get storeUrl(): string {
    return this.settings.storeUrl;
  }

  /** The longest one request may take: every try at its deadline, the longest waits between them, a second of slack. */
  get requestDeadlineMs(): number {
    return this.system.callDeadlineMs + 1_000;
  }

  /** Products in the shop (any status but trash), read with the smallest page. */
  async countProducts(signal?: AbortSignal): Promise<number> {
    const { headers } = await this.request<unknown[]>('countProducts', 'GET', '/products', { query: { per_page: 1 }, signal });
    return Number(headers.get('x-wp-total') ?? 0);
  }

  listProducts(): Promise<WooProduct[]> {
    return this.listAll<WooProduct>('listProducts', '/products', { orderby: 'id', order: 'asc' });
  }

  listVariations(parentId: number): Promise<WooVariation[]> {
    return this.listAll<WooVariation>('listVariations', `/products/${parentId}/variations`, { orderby: 'id', order: 'asc' });
  }

  async getProduct(id: number): Promise<WooProduct> {
    return (await this.request<WooProduct>('getProduct', 'GET', `/products/${id}`)).body;
  }

  async getVariation(parentId: number, id: number): Promise<WooVariation> {
    return (await this.request<WooVariation>('getVariation', 'GET', `/products/${parentId}/variations/${id}`)).body;
  }

  /** Sets a product's (parentId null) or a variation's prices; answers the item as the shop now has it. */
  async updatePrices(target: { id: number; parentId: number | null }, prices: WooPrices): Promise<WooProduct | WooVariation> {
    const path = target.parentId ? `/products/${target.parentId}/variations/${target.id}` : `/products/${target.id}`;
    return (await this.request<WooProduct | WooVariation>('updatePrices', 'PUT', path, { body: prices })).body;
  }

  /**
   * One batch update of products (parentId null) or of one variable product's variations: at most
   * 100 items. A failed item does not fail the batch; each comes back in request order. `signal`
   * (a run's, on cancel) ends the call; the prices are absolute, so a batch cut off is safe to send again.
   */
  async batchUpdatePrices(parentId: number | null, updates: (WooPrices & { id: number })[], signal?: AbortSignal): Promise<BatchItemResult[]> {
    if (updates.length > WOO_BATCH_LIMIT) throw new Error(`a batch takes at most ${WOO_BATCH_LIMIT} items, got ${updates.length}`);
    const path = parentId ? `/products/${parentId}/variations/batch` : '/products/batch';
    const { body } = await this.request<{ update?: (Record<string, unknown> & { id: number })[] }>('batchUpdatePrices', 'POST', path, { body: { update: updates }, signal });
    const results = body.update ?? [];
    return updates.map((update, index) => {
      const result = results[index];
      if (!result) return { id: update.id, ok: false, error: 'WooCommerce returned no result for this item' };
      const error = result.error as { code?: string; message?: string } | undefined;
      if (error) return { id: update.id, ok: false, error: `${error.message ?? 'failed'} (${error.code ?? 'error'})` };
      return { id: update.id, ok: true, item: result as unknown as WooProduct };
    });
  }

  /** The product with this SKU, in any status but trash (or in the trash when `trashed`); null when there is none. */
  async findProductBySku(sku: string, trashed = false): Promise<WooProduct | null> {
    const { body } = await this.request<WooProduct[]>('findProductBySku', 'GET', '/products', { query: { sku, status: trashed ? 'trash' : undefined, per_page: 1 } });
    return body[0] ?? null;
  }

  /**
   * Creates a product. Only ever called with a SKU the shop keeps unique, so a try repeated after a
   * lost answer is refused as a duplicate (and the caller finds what the first try made).
   */
  async createProduct(fields: Record<string, unknown>): Promise<WooProduct> {
    return (await this.request<WooProduct>('createProduct', 'POST', '/products', { body: fields })).body;
  }

  async updateProduct(id: number, fields: Record<string, unknown>): Promise<WooProduct> {
    return (await this.request<WooProduct>('updateProduct', 'PUT', `/products/${id}`, { body: fields })).body;
  }

  /** Deleted for good (force), its variations with it. */
  async deleteProduct(id: number): Promise<void> {
    await this.request('deleteProduct', 'DELETE', `/products/${id}`, { query: { force: 'true' } });
  }

  /** The variation of this parent with this SKU, or null. */
  async findVariationBySku(parentId: number, sku: string): Promise<WooVariation | null> {
    const { body } = await this.request<WooVariation[]>('findVariationBySku', 'GET', `/products/${parentId}/variations`, { query: { sku, per_page: 1 } });
    return body[0] ?? null;
  }

  /** As createProduct: with a unique SKU, so a repeated try cannot make a second one. */
  async createVariation(parentId: number, fields: Record<string, unknown>): Promise<WooVariation> {
    return (await this.request<WooVariation>('createVariation', 'POST', `/products/${parentId}/variations`, { body: fields })).body;
  }

  async updateVariation(parentId: number, id: number, fields: Record<string, unknown>): Promise<WooVariation> {
    return (await this.request<WooVariation>('updateVariation', 'PUT', `/products/${parentId}/variations/${id}`, { body: fields })).body;
  }

  /** Variations have no trash: deleted for good. */
  async deleteVariation(parentId: number, id: number): Promise<void> {
    await this.request('deleteVariation', 'DELETE', `/products/${parentId}/variations/${id}`, { query: { force: 'true' } });
  }

  async getOrder(id: number): Promise<WooOrder> {
    return (await this.request<WooOrder>('getOrder', 'GET', `/orders/${id}`)).body;
  }

  /** Orders matching a search term (billing names, e-mail, phone), newest first. */
  async searchOrders(search: string, limit: number): Promise<WooOrder[]> {
    return (await this.request<WooOrder[]>('searchOrders', 'GET', '/orders', { query: { search, per_page: Math.min(limit, WOO_PAGE_SIZE), orderby: 'date', order: 'desc' } })).body;
  }

  /** Every page of a list, 100 at a time, as long as X-WP-TotalPages says there are more. */
  private async listAll<T>(operation: string, path: string, query: Query): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const { body, headers } = await this.request<T[]>(operation, 'GET', path, { query: { ...query, per_page: WOO_PAGE_SIZE, page } });
      items.push(...body);
      const totalPages = Number(headers.get('x-wp-totalpages') ?? 1);
      if (page >= totalPages || body.length === 0) return items;
    }
  }

  private async request<T>(operation: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, options: { query?: Query; body?: unknown; signal?: AbortSignal } = {}): Promise<Answer<T>> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.settings.keysInQuery) {
      query.set('consumer_key', this.settings.consumerKey);
      query.set('consumer_secret', this.settings.consumerSecret);
    } else {
      headers.authorization = `Basic ${Buffer.from(`${this.settings.consumerKey}:${this.settings.consumerSecret}`).toString('base64')}`;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let answer;
    try {
      answer = await this.system.call({
        operation,
        method,
        path: query.size > 0 ? `${path}?${query}` : path,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        idempotent: true,
        signal: options.signal,
      });
    } catch (error) {
      throw error instanceof OutsideCallError ? this.noAnswer(error) : error;
    }
    if (answer.status >= 200 && answer.status < 300) {
      try {
        return { body: JSON.parse(answer.text) as T, headers: answer.headers };
      } catch {
        throw new WooCommerceError(502, 'invalid_json', `WooCommerce answered ${answer.status} with something that is not JSON`);
      }
    }
    throw errorFromAnswer(answer);
  }

  /** The shop gave no answer: timed out, unreachable, or its breaker keeps calls away (saying what it last failed with). */
  private noAnswer(error: OutsideCallError): WooCommerceError {
    if (error.failure === 'timeout') return new WooCommerceError(0, 'timeout', `WooCommerce did not answer within ${this.settings.timeoutMs / 1000} s`);
    if (error.failure === 'unreachable') return new WooCommerceError(0, 'unreachable', `Could not reach WooCommerce at ${new URL(this.settings.storeUrl).host}: ${error.details.cause}`);
    const paused = error.pausedSentence('WooCommerce');
    const last = error.details.lastFailure;
    const lastMessage = last instanceof OutsideCallError ? this.noAnswer(last).message : last ? errorFromAnswer(last as OutsideAnswer).message : null;
    // The cause goes along: a call never made (breaker open) is not charged to a push's tries.
    return new WooCommerceError(503, error.failure, lastMessage ? `${lastMessage}; ${paused}` : paused, { cause: error });
  }
}

/** WooCommerce's `{code, message, data}` envelope, or a host's HTML error page, as one readable error. */
function errorFromAnswer(answer: OutsideAnswer): WooCommerceError {
  let envelope: { code?: string; message?: string } | undefined;
  try {
    envelope = JSON.parse(answer.text) as { code?: string; message?: string };
  } catch {
    envelope = undefined;
  }
  const detail = envelope?.message ? `: ${envelope.message}${envelope.code ? ` (${envelope.code})` : ''}` : ' (not a WooCommerce answer: an error page)';
  if (answer.status === 429) {
    const wait = retryAfterMs(answer.headers);
    const asks = wait === null ? '' : `; it asks to wait ${Math.ceil(wait / 1000)} s`;
    return new WooCommerceError(429, 'rate_limited', `WooCommerce is limiting requests (429)${asks}${envelope?.message ? `: ${envelope.message}` : ''}`);
  }
  return new WooCommerceError(answer.status, envelope?.code ?? `http_${answer.status}`, `WooCommerce answered ${answer.status}${detail}`);
}
