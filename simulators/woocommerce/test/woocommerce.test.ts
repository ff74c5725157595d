import { listen } from '@bo/sim-kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWooCommerceSimulator } from '../src/app';

const sim = buildWooCommerceSimulator();
const [readWrite, readOnly] = sim.state.keys;
let root = '';

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const woo = async (path: string, init: { method?: string; body?: unknown; auth?: string | null } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const auth = init.auth === undefined ? basic(readWrite.consumer_key, readWrite.consumer_secret) : init.auth;
  if (auth) headers.authorization = auth;
  const response = await fetch(`${root}/wp-json/wc/v3${path}`, { method: init.method ?? 'GET', headers: init.body === undefined ? (auth ? { authorization: auth } : {}) : headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
};
const control = (path: string, body: unknown = {}) => fetch(`${root}/__sim/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const skuId = async (sku: string) => (await woo(`/products?sku=${sku}`)).body[0].id as number;

beforeAll(async () => {
  root = await listen(sim.app);
});
afterAll(() => sim.app.close());
beforeEach(async () => {
  await control('reset');
});

describe('auth', () => {
  it('accepts Basic and query-string keys, on both URL forms', async () => {
    expect((await woo('/products')).status).toBe(200);
    const query = `consumer_key=${readWrite.consumer_key}&consumer_secret=${readWrite.consumer_secret}`;
    expect((await fetch(`${root}/wp-json/wc/v3/products?${query}`)).status).toBe(200);
    const plain = await fetch(`${root}/?rest_route=/wc/v3/products&per_page=2&${query}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('link')).toContain('rest_route=%2Fwc%2Fv3%2Fproducts');
  });

  it('treats an unknown key as anonymous: cannot_view / cannot_create / cannot_edit', async () => {
    const stranger = basic('ck_unknown', 'cs_unknown');
    expect(await woo('/products', { auth: stranger })).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_cannot_view', message: 'Sorry, you cannot list resources.', data: { status: 401 } } });
    expect((await woo('/products', { auth: null })).body.code).toBe('woocommerce_rest_cannot_view');
    expect((await woo('/products', { method: 'POST', body: { name: 'x' }, auth: stranger })).body.code).toBe('woocommerce_rest_cannot_create');
    const id = await skuId('MLBB-86');
    expect((await woo(`/products/${id}`, { method: 'PUT', body: { name: 'x' }, auth: stranger })).body.code).toBe('woocommerce_rest_cannot_edit');
  });

  it('answers "Consumer secret is invalid." for a wrong secret and refuses writes with a read-only key', async () => {
    expect(await woo('/products', { auth: basic(readWrite.consumer_key, 'cs_wrong') })).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_authentication_error', message: 'Consumer secret is invalid.' } });
    const reader = basic(readOnly.consumer_key, readOnly.consumer_secret);
    expect((await woo('/products', { auth: reader })).status).toBe(200);
    expect(await woo('/products', { method: 'POST', body: { name: 'x' }, auth: reader })).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_authentication_error' } });
  });

  it('answers rest_no_route for an unknown route', async () => {
    expect(await woo('/coupons-nope')).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
  });
});

describe('products', () => {
  it('paginates with X-WP-Total, X-WP-TotalPages and Link, and checks per_page', async () => {
    const first = await woo('/products?per_page=3');
    expect(first.body).toHaveLength(3);
    expect(first.headers.get('x-wp-total')).toBe('8');
    expect(first.headers.get('x-wp-totalpages')).toBe('3');
    expect(first.headers.get('link')).toMatch(/<[^>]*page=2[^>]*>; rel="next"/);
    const middle = await woo('/products?per_page=3&page=2');
    expect(middle.headers.get('link')).toMatch(/rel="prev".*rel="next"/);
    const last = await woo('/products?per_page=3&page=3');
    expect(last.body).toHaveLength(2);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    expect((await woo('/products?per_page=3&page=9')).body).toEqual([]);
    const ids = [...first.body, ...middle.body, ...last.body].map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(8);
    expect(await woo('/products?per_page=101')).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', data: { params: { per_page: expect.any(String) } } } });
    expect((await woo('/products?per_page=0')).status).toBe(400);
    await control('options', { pagePastEnd: 'error' });
    expect((await woo('/products?per_page=3&page=9')).status).toBe(400);
  });

  it('filters by search, sku list, status and type', async () => {
    expect((await woo('/products?search=netflix')).body.map((p: { name: string }) => p.name)).toEqual(['Netflix Premium']);
    expect((await woo('/products?sku=MLBB-86,FF-520')).body).toHaveLength(2);
    expect((await woo('/products?status=draft')).body.map((p: { sku: string }) => p.sku)).toEqual(['DSNY-1M']);
    expect((await woo('/products?type=variable')).body).toHaveLength(3);
  });

  it('creates with string prices, rejects numbers and bad enums with data.params, and updates partially', async () => {
    const created = await woo('/products', { method: 'POST', body: { name: 'HBO Max 1 сар', sku: 'HBO-1M', regular_price: '29000' } });
    expect(created).toMatchObject({ status: 201, body: { type: 'simple', status: 'publish', price: '29000', regular_price: '29000', sale_price: '', on_sale: false } });
    const wrong = await woo('/products', { method: 'POST', body: { name: 'x', regular_price: 29000, stock_status: 'plenty' } });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'rest_invalid_param', message: 'Invalid parameter(s): regular_price, stock_status', data: { status: 400, params: { regular_price: 'regular_price is not of type string.' } } } });
    const id = created.body.id;
    for (const method of ['PUT', 'POST', 'PATCH']) expect((await woo(`/products/${id}`, { method, body: { sale_price: '25000' } })).status).toBe(200);
    const updated = (await woo(`/products/${id}`)).body;
    expect(updated).toMatchObject({ name: 'HBO Max 1 сар', regular_price: '29000', sale_price: '25000', price: '25000', on_sale: true });
    expect((await woo(`/products/${id}`, { method: 'PUT', body: { sale_price: '' } })).body.on_sale).toBe(false);
    expect((await woo('/products', { method: 'POST', body: { name: 'dup', sku: 'HBO-1M' } })).body.code).toBe('product_invalid_sku');
    expect(await woo('/products/999999')).toMatchObject({ status: 404, body: { code: 'woocommerce_rest_product_invalid_id', message: 'Invalid ID.' } });
  });

  it('trashes without force and deletes for good with force', async () => {
    const id = await skuId('MLBB-86');
    expect((await woo(`/products/${id}`, { method: 'DELETE' })).body.status).toBe('trash');
    expect((await woo('/products?sku=MLBB-86')).body).toEqual([]);
    expect((await woo(`/products/${id}`)).body.status).toBe('trash');
    expect((await woo(`/products/${id}`, { method: 'DELETE' })).status).toBe(410);
    expect((await woo(`/products/${id}?force=true`, { method: 'DELETE' })).body.id).toBe(id);
    expect((await woo(`/products/${id}`)).status).toBe(404);
  });
});

describe('variations', () => {
  it('lists, creates, updates and deletes variations (force only); the parent price follows them', async () => {
    const pid = await skuId('NFX-PREM');
    const list = await woo(`/products/${pid}/variations`);
    expect(list.body).toHaveLength(3);
    expect(list.headers.get('x-wp-total')).toBe('3');
    expect((await woo(`/products/${pid}`)).body).toMatchObject({ type: 'variable', price: '35000', variations: expect.arrayContaining(list.body.map((v: { id: number }) => v.id)) });
    const created = await woo(`/products/${pid}/variations`, { method: 'POST', body: { sku: 'NFX-PREM-12', regular_price: '349000', attributes: [{ name: 'Хугацаа', option: '12 сар' }] } });
    expect(created).toMatchObject({ status: 201, body: { parent_id: pid, price: '349000' } });
    const vid = created.body.id;
    expect((await woo(`/products/${pid}/variations/${vid}`, { method: 'PUT', body: { regular_price: 1 } })).status).toBe(400);
    expect((await woo(`/products/${pid}/variations/${vid}`, { method: 'PUT', body: { sale_price: '20000' } })).body.on_sale).toBe(true);
    expect((await woo(`/products/${pid}`)).body.price).toBe('20000');
    expect(await woo(`/products/${pid}/variations/${vid}`, { method: 'DELETE' })).toMatchObject({ status: 501, body: { code: 'woocommerce_rest_trash_not_supported' } });
    expect((await woo(`/products/${pid}/variations/${vid}?force=true`, { method: 'DELETE' })).status).toBe(200);
    expect(await woo(`/products/${pid}/variations/${vid}`)).toMatchObject({ status: 404, body: { code: 'woocommerce_rest_product_variation_invalid_id' } });
  });
});

describe('batch', () => {
  it('answers in order with per-item errors and no rollback', async () => {
    const keep = await skuId('MLBB-86');
    const gone = await skuId('FF-520');
    const { status, body } = await woo('/products/batch', {
      method: 'POST',
      body: {
        create: [{ name: 'A', regular_price: '1000' }, { name: 'B', regular_price: 1000 }, { name: 'C', regular_price: '3000' }],
        update: [{ id: keep, regular_price: '7000' }, { id: 999999, name: 'nope' }],
        delete: [gone, 888888],
      },
    });
    expect(status).toBe(200);
    expect(body.create.map((r: { name?: string }) => r.name)).toEqual(['A', undefined, 'C']);
    expect(body.create[1]).toMatchObject({ id: 0, error: { code: 'rest_invalid_param', data: { status: 400 } } });
    expect(body.update[0]).toMatchObject({ id: keep, regular_price: '7000' });
    expect(body.update[1]).toMatchObject({ id: 999999, error: { code: 'woocommerce_rest_product_invalid_id', data: { status: 404 } } });
    expect(body.delete[0].id).toBe(gone);
    expect(body.delete[1].error.code).toBe('woocommerce_rest_product_invalid_id');
    expect((await woo(`/products/${gone}`)).status).toBe(404);
    expect((await woo('/products?search=A')).body.length).toBeGreaterThan(0);
  });

  it('refuses more than 100 items with 413, counting create + update + delete', async () => {
    const create = Array.from({ length: 60 }, (_, i) => ({ name: `P${i}`, regular_price: '1' }));
    const tooMany = await woo('/products/batch', { method: 'POST', body: { create, delete: Array.from({ length: 41 }, (_, i) => i + 1) } });
    expect(tooMany).toMatchObject({ status: 413, body: { code: 'woocommerce_rest_request_entity_too_large', message: 'Unable to accept more than 100 items for this request.' } });
    expect((await woo('/products/batch', { method: 'POST', body: { create: create.slice(0, 50), update: create.slice(0, 50).map((_, i) => ({ id: i + 1 })) } })).status).toBe(200);
  });

  it('batches variations of a product', async () => {
    const pid = await skuId('SPOT-PREM');
    const [first] = (await woo(`/products/${pid}/variations`)).body;
    const { body } = await woo(`/products/${pid}/variations/batch`, { method: 'POST', body: { create: [{ sku: 'SPOT-PREM-6', regular_price: '80000' }], update: [{ id: first.id, regular_price: '50000' }], delete: [first.id] } });
    expect(body.create[0].sku).toBe('SPOT-PREM-6');
    expect(body.update[0].regular_price).toBe('50000');
    expect(body.delete[0].id).toBe(first.id);
    expect((await woo(`/products/${pid}/variations`)).body).toHaveLength(2);
  });
});

describe('orders', () => {
  it('searches billing email, phone and name, filters by status and shows one order', async () => {
    expect((await woo('/orders')).headers.get('x-wp-total')).toBe('4');
    expect((await woo('/orders?search=99112233')).body).toHaveLength(2);
    expect((await woo('/orders?search=saraa@example.mn')).body[0].billing.first_name).toBe('Сарангэрэл');
    expect((await woo('/orders?search=Ганбаатар')).body).toHaveLength(1);
    expect((await woo('/orders?status=processing,pending')).body.map((o: { status: string }) => o.status).sort()).toEqual(['pending', 'processing']);
    const [order] = (await woo('/orders?status=processing')).body;
    const one = (await woo(`/orders/${order.id}`)).body;
    expect(one).toMatchObject({ currency: 'MNT', number: String(order.id), total: '51000', line_items: [{ price: 38000, sku: 'PUBG-UC-3' }, { quantity: 2, total: '13000' }] });
    expect(await woo('/orders/999999')).toMatchObject({ status: 404, body: { code: 'woocommerce_rest_shop_order_invalid_id' } });
  });

  it('adds an order from /__sim/', async () => {
    expect((await control('orders', { status: 'pending', line_items: [{ sku: 'STEAM-20' }] })).status).toBe(201);
    expect((await woo('/orders?status=pending')).body).toHaveLength(2);
    expect((await control('orders')).status).toBe(201);
    expect(await (await fetch(`${root}/__sim/`)).text()).toContain('Steam Wallet $20');
  });
});

describe('injected faults (what a client must survive)', () => {
  it('serves 5xx with an HTML body, 429, slow answers, then recovers', async () => {
    await control('faults', [
      { kind: 'html', status: 503, pathPrefix: '/wp-json/wc/v3/products', times: 1 },
      { kind: 'status', status: 429, headers: { 'retry-after': '2' }, body: 'Too Many Requests', pathPrefix: '/wp-json/wc/v3/orders', times: 1 },
    ]);
    const html = await woo('/products');
    expect(html.status).toBe(503);
    expect(html.headers.get('content-type')).toContain('text/html');
    const limited = await woo('/orders');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    expect((await woo('/products')).status).toBe(200);
    await control('faults', { kind: 'slow', delayMs: 800, pathPrefix: '/wp-json/wc/v3/products/batch', times: 1 });
    await expect(fetch(`${root}/wp-json/wc/v3/products/batch`, { method: 'POST', headers: { authorization: basic(readWrite.consumer_key, readWrite.consumer_secret) }, signal: AbortSignal.timeout(200) })).rejects.toThrow();
  });
});
