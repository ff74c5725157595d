import { randomBytes } from 'node:crypto';
import { invalidId, invalidParams } from './errors';
import { commaList } from './listing';
import type { Order, WooState } from './state';

export const orderStatuses = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed', 'trash', 'checkout-draft'];

export interface OrderInput {
  status?: string;
  customer_id?: number;
  billing?: Partial<Record<string, string>>;
  line_items?: { product_id: number; variation_id?: number; quantity?: number }[];
  payment_method?: string;
  date_created?: string;
}

const address = (fields: Partial<Record<string, string>> = {}) => ({
  first_name: '',
  last_name: '',
  company: '',
  address_1: '',
  address_2: '',
  city: 'Улаанбаатар',
  state: '',
  postcode: '',
  country: 'MN',
  ...fields,
});

/** An order in its REST shape; line prices come from the catalogue (numbers), totals are strings. */
export function createOrder(state: WooState, input: OrderInput): Order {
  const id = state.nextId();
  const created = input.date_created ?? new Date().toISOString().slice(0, 19);
  const lineItems = (input.line_items ?? []).map((line, index) => {
    const product = state.products.get(line.product_id);
    const variation = line.variation_id ? state.variations.get(line.variation_id) : undefined;
    const unit = Number((variation ?? product)?.sale_price || (variation ?? product)?.regular_price || 0);
    const quantity = line.quantity ?? 1;
    const options = (variation?.attributes ?? []).map((a) => a.option).join(', ');
    return {
      id: id * 10 + index + 1,
      name: [product?.name ?? `Product ${line.product_id}`, options].filter(Boolean).join(' - '),
      product_id: line.product_id,
      variation_id: line.variation_id ?? 0,
      quantity,
      tax_class: '',
      subtotal: (unit * quantity).toFixed(0),
      subtotal_tax: '0',
      total: (unit * quantity).toFixed(0),
      total_tax: '0',
      sku: (variation ?? product)?.sku ?? '',
      price: unit,
      meta_data: [],
    };
  });
  const total = lineItems.reduce((sum, line) => sum + Number(line.total), 0);
  const status = input.status ?? 'processing';
  const paid = ['processing', 'completed'].includes(status);
  const billing = { ...address(input.billing), email: input.billing?.email ?? '', phone: input.billing?.phone ?? '' };
  const order: Order = {
    id,
    parent_id: 0,
    number: String(id),
    order_key: `wc_order_${randomBytes(7).toString('base64url')}`,
    created_via: 'checkout',
    status,
    currency: 'MNT',
    date_created: created,
    date_modified: created,
    date_paid: paid ? created : null,
    date_completed: status === 'completed' ? created : null,
    discount_total: '0',
    shipping_total: '0',
    total: total.toFixed(0),
    total_tax: '0',
    customer_id: input.customer_id ?? 0,
    customer_note: '',
    billing,
    shipping: address({ first_name: billing.first_name, last_name: billing.last_name }),
    payment_method: input.payment_method ?? 'qpay',
    payment_method_title: 'QPay',
    transaction_id: '',
    line_items: lineItems,
    meta_data: [],
  };
  state.orders.set(id, order);
  return order;
}

export function findOrder(state: WooState, id: number): Order {
  const order = state.orders.get(id);
  if (!order) throw invalidId('shop_order');
  return order;
}

/** Filters of GET /orders: status (comma list, any = all but trash), search, customer, product, after/before. */
export function filterOrders(state: WooState, query: Record<string, string>): Order[] {
  const statuses = commaList(query.status) ?? ['any'];
  const unknown = statuses.filter((s) => s !== 'any' && !orderStatuses.includes(s));
  if (unknown.length) throw invalidParams({ status: `status[0] is not one of any, ${orderStatuses.join(', ')}.` });
  const search = query.search?.toLowerCase();
  return [...state.orders.values()].filter((order) => {
    if (!statuses.includes(order.status) && !(statuses.includes('any') && order.status !== 'trash')) return false;
    if (query.customer && order.customer_id !== Number(query.customer)) return false;
    if (query.product && !order.line_items.some((line) => line.product_id === Number(query.product))) return false;
    if (query.after && order.date_created <= query.after.slice(0, 19)) return false;
    if (query.before && order.date_created >= query.before.slice(0, 19)) return false;
    if (search) {
      const { billing, shipping } = order;
      const haystack = [billing.first_name, billing.last_name, billing.email, billing.phone, billing.address_1, billing.city, shipping.first_name, shipping.last_name, shipping.address_1];
      if (!haystack.some((value) => value?.toLowerCase().includes(search))) return false;
    }
    return true;
  });
}
